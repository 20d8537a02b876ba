//! Scatter labels that would collide are moved apart before they are drawn
//! ([`place_labels`]), so that two models close together stay readable.

/// A label's box on the chart: from `x0` to `x1`, its baseline at `y`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LabelBox {
    pub x0: f64,
    pub x1: f64,
    pub y: f64,
    pub height: f64,
}

/// The width of a label in the chart's sans-serif at `size` px (a mean
/// glyph width; labels are short names).
pub fn label_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.56
}

/// `text` as it fits in `width` pixels at font `size` ([`label_width`]):
/// whole, or its start and end around an ellipsis (run names often differ
/// only at their end: `…airline_1trial` against `…airline_3trial`).
pub fn fit_label(text: &str, size: f64, width: f64) -> String {
    let n = text.chars().count();
    if label_width(text, size) <= width {
        return text.to_string();
    }
    // Saturating float-to-int cast: a negative width keeps one character.
    let keep = ((width / (size * 0.56)) as usize).clamp(2, n) - 1;
    let head = keep.div_ceil(2);
    let tail = keep - head;
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(n - tail).collect();
    format!("{start}…{end}")
}

/// Baselines for the labels (`None`: no label) such that no two boxes
/// overlap, each as near its own baseline as it can be: labels are placed
/// top to bottom, each moved down (or, past the frame's bottom `max`, up)
/// from the boxes placed before it that it would cross. Greedy, so not
/// always the closest packing, but never a collision between two labels.
pub fn place_labels(boxes: &[Option<LabelBox>], min: f64, max: f64) -> Vec<Option<f64>> {
    let mut order: Vec<usize> = (0..boxes.len()).filter(|&i| boxes[i].is_some()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (boxes[a].map_or(0.0, |x| x.y), boxes[b].map_or(0.0, |x| x.y));
        a.total_cmp(&b)
    });
    let mut placed: Vec<LabelBox> = Vec::new();
    let mut out = vec![None; boxes.len()];
    let crosses = |b: &LabelBox, y: f64, p: &LabelBox| {
        b.x0 < p.x1 && p.x0 < b.x1 && (y - p.y).abs() < f64::midpoint(b.height, p.height)
    };
    for i in order {
        let Some(b) = boxes[i] else { continue };
        let mut y = b.y.clamp(min, max);
        // Down past every placed box it crosses; if that leaves the frame,
        // up from its own place instead.
        for _ in 0..=placed.len() {
            match placed.iter().find(|p| crosses(&b, y, p)) {
                Some(p) => y = p.y + f64::midpoint(b.height, p.height) + 0.5,
                None => break,
            }
        }
        if y > max {
            y = b.y.clamp(min, max);
            for _ in 0..=placed.len() {
                match placed.iter().find(|p| crosses(&b, y, p)) {
                    Some(p) => y = p.y - f64::midpoint(b.height, p.height) - 0.5,
                    None => break,
                }
            }
        }
        placed.push(LabelBox { y, ..b });
        out[i] = Some(y);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_label_keeps_its_ends_and_fits() {
        assert_eq!(fit_label("short", 11.0, 100.0), "short");
        let long = "adaptive-agent-opus-4-6__airline_1trial_BARE_LIST";
        let cut = fit_label(long, 11.0, 120.0);
        assert!(label_width(&cut, 11.0) <= 120.0, "{cut}");
        assert!(
            cut.starts_with("adap") && cut.ends_with("LIST") && cut.contains('…'),
            "{cut}"
        );
        // Characters, not bytes: no panic inside a multi-byte character.
        assert_eq!(fit_label("ααααααααα", 10.0, 30.0).chars().count(), 5);
    }

    fn overlap(a: &LabelBox, b: &LabelBox) -> bool {
        a.x0 < b.x1 && b.x0 < a.x1 && (a.y - b.y).abs() < f64::midpoint(a.height, b.height)
    }

    #[test]
    fn labels_on_one_point_are_stacked_and_apart_ones_stay() {
        let b = |x0: f64, y: f64| {
            Some(LabelBox {
                x0,
                x1: x0 + 40.0,
                y,
                height: 10.0,
            })
        };
        let ys = place_labels(
            &[b(10.0, 100.0), b(12.0, 100.0), None, b(200.0, 100.0)],
            0.0,
            300.0,
        );
        assert_eq!(ys[0], Some(100.0));
        assert_eq!(ys[1], Some(110.5));
        assert_eq!(ys[2], None);
        assert_eq!(ys[3], Some(100.0), "no neighbour: unmoved");
        // At the frame's bottom a label moves up instead.
        let ys = place_labels(&[b(10.0, 295.0), b(10.0, 296.0)], 0.0, 300.0);
        assert_eq!(ys[0], Some(295.0));
        assert!(
            ys[1].unwrap() <= 300.0 && (ys[1].unwrap() - 295.0).abs() >= 10.0,
            "{ys:?}"
        );
    }

    /// Random crowds of labels (a fixed generator): no two placed boxes overlap.
    #[test]
    fn no_two_placed_labels_overlap() {
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..200 {
            let n = 2 + (next() * 20.0) as usize;
            let boxes: Vec<Option<LabelBox>> = (0..n)
                .map(|_| {
                    let x0 = next() * 300.0;
                    Some(LabelBox {
                        x0,
                        x1: x0 + 20.0 + next() * 60.0,
                        y: 30.0 + next() * 260.0,
                        height: 10.0,
                    })
                })
                .collect();
            let ys = place_labels(&boxes, 30.0, 294.0);
            let placed: Vec<LabelBox> = boxes
                .iter()
                .zip(&ys)
                .map(|(b, y)| LabelBox {
                    y: y.unwrap(),
                    ..b.unwrap()
                })
                .collect();
            for i in 0..n {
                for j in 0..i {
                    assert!(
                        !overlap(&placed[i], &placed[j]),
                        "{:?} {:?}",
                        placed[i],
                        placed[j]
                    );
                }
            }
        }
    }
}
