//! The diverging colour scale of heatmaps and their cell text colour.

/// Blue for values above zero (execution above prediction, positive correlation).
pub const BLUE: (u8, u8, u8) = (33, 102, 172);
/// Red for values below zero.
pub const RED: (u8, u8, u8) = (178, 24, 43);
/// The fill of a missing value.
const MISSING: (u8, u8, u8) = (230, 230, 230);
/// The text colour of light cells (the page's ink).
const DARK_INK: (u8, u8, u8) = (26, 26, 26);
/// WCAG AA contrast for text of the heatmaps' size.
const AA: f64 = 4.5;

/// The fill of `value`: white at 0, `BLUE` at `+scale`, `RED` at `-scale`,
/// linear in between and saturated beyond; missing values are grey.
fn fill(value: Option<f64>, scale: f64) -> (u8, u8, u8) {
    let Some(v) = value else {
        return MISSING;
    };
    let t = if scale > 0.0 {
        (v / scale).clamp(-1.0, 1.0)
    } else {
        0.0
    };
    let (r, g, b) = if t >= 0.0 { BLUE } else { RED };
    let a = t.abs();
    let mix = |c: u8| (255.0 + (f64::from(c) - 255.0) * a).round() as u8;
    (mix(r), mix(g), mix(b))
}

/// A diverging colour: white at 0, `BLUE` at `+scale`, `RED` at `-scale`,
/// linear in between and saturated beyond. Missing values are grey.
pub fn diverging(value: Option<f64>, scale: f64) -> String {
    let (r, g, b) = fill(value, scale);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// WCAG relative luminance of an sRGB colour.
fn luminance((r, g, b): (u8, u8, u8)) -> f64 {
    let ch = |c: u8| {
        let s = f64::from(c) / 255.0;
        if s <= 0.04045 {
            s / 12.92
        } else {
            ((s + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b)
}

/// WCAG contrast ratio of two colours (1 to 21).
pub fn contrast(a: (u8, u8, u8), b: (u8, u8, u8)) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// The text colour of a cell: the page's dark ink where it reaches AA
/// contrast (4.5:1) on the cell's fill, else white where that does; in the
/// middle of the scale, where neither does, black or white, whichever
/// contrasts more (one of them always reaches 4.5:1 on any fill).
pub fn ink(value: Option<f64>, scale: f64) -> &'static str {
    let bg = fill(value, scale);
    let (black, white) = ((0, 0, 0), (255, 255, 255));
    if contrast(DARK_INK, bg) >= AA {
        "#1a1a1a"
    } else if contrast(white, bg) >= AA {
        "#ffffff"
    } else if contrast(black, bg) >= contrast(white, bg) {
        "#000000"
    } else {
        "#ffffff"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diverging_scale_is_symmetric_and_white_at_zero() {
        assert_eq!(diverging(Some(0.0), 5.0), "#ffffff");
        assert_eq!(diverging(Some(5.0), 5.0), "#2166ac");
        assert_eq!(diverging(Some(-5.0), 5.0), "#b2182b");
        assert_eq!(diverging(Some(-50.0), 5.0), "#b2182b");
        assert_eq!(diverging(None, 5.0), "#e6e6e6");
        // Half way: each channel 255 + (c - 255) / 2, rounded half away from zero.
        assert_eq!(
            diverging(Some(2.5), 5.0),
            format!("#{:02x}{:02x}{:02x}", 144, 179, 214)
        );
    }

    fn rgb(hex: &str) -> (u8, u8, u8) {
        let ch = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap();
        (ch(1), ch(3), ch(5))
    }

    #[test]
    fn contrast_is_wcag() {
        // Values of the WCAG definition, computed by hand.
        assert!((contrast((0, 0, 0), (255, 255, 255)) - 21.0).abs() < 1e-12);
        assert!((contrast((255, 255, 255), (255, 255, 255)) - 1.0).abs() < 1e-12);
        // #767676 on white: 4.54:1 (the lightest grey that passes AA).
        assert!((contrast((118, 118, 118), (255, 255, 255)) - 4.54).abs() < 0.005);
    }

    #[test]
    fn cell_text_reaches_aa_on_every_fill() {
        // Every step of both halves of the scale, and a missing value: the
        // ink chosen reaches 4.5:1 on the cell's fill. White on the fill at
        // |t| = 0.56 was 2.4:1 when the ink flipped at a fixed 0.55.
        for k in -1000..=1000 {
            let v = f64::from(k) / 1000.0;
            let (fg, bg) = (ink(Some(v), 1.0), diverging(Some(v), 1.0));
            let c = contrast(rgb(fg), rgb(&bg));
            assert!(c >= AA, "{fg} on {bg} (value {v}): {c:.2}:1");
        }
        assert_eq!(ink(None, 1.0), "#1a1a1a");
        // The look is kept at the ends: dark ink near zero, white on the strong colours.
        assert_eq!(ink(Some(0.1), 1.0), "#1a1a1a");
        assert_eq!(ink(Some(1.0), 1.0), "#ffffff");
        assert_eq!(ink(Some(-1.0), 1.0), "#ffffff");
    }
}
