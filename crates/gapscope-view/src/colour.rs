//! The diverging colour scale of heatmaps and their cell text colour.

/// Blue for values above zero (execution above prediction, positive correlation).
pub const BLUE: (u8, u8, u8) = (33, 102, 172);
/// Red for values below zero.
pub const RED: (u8, u8, u8) = (178, 24, 43);

/// A diverging colour: white at 0, `BLUE` at `+scale`, `RED` at `-scale`,
/// linear in between and saturated beyond. Missing values are grey.
pub fn diverging(value: Option<f64>, scale: f64) -> String {
    let Some(v) = value else {
        return "#e6e6e6".to_string();
    };
    let t = if scale > 0.0 {
        (v / scale).clamp(-1.0, 1.0)
    } else {
        0.0
    };
    let (r, g, b) = if t >= 0.0 { BLUE } else { RED };
    let a = t.abs();
    let mix = |c: u8| (255.0 + (f64::from(c) - 255.0) * a).round() as u8;
    format!("#{:02x}{:02x}{:02x}", mix(r), mix(g), mix(b))
}

/// Dark text on light cells, white text on strong colours.
pub fn ink(value: Option<f64>, scale: f64) -> &'static str {
    match value {
        Some(v) if scale > 0.0 && (v / scale).abs() > 0.55 => "#ffffff",
        _ => "#1a1a1a",
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
        // Half way: 255 + (33 - 255) / 2 = 144
        // Half way: each channel 255 + (c - 255) / 2, rounded half away from zero.
        assert_eq!(
            diverging(Some(2.5), 5.0),
            format!("#{:02x}{:02x}{:02x}", 144, 179, 214)
        );
    }
}
