//! Virtualised tables: which rows of a long table a scrolling box draws.
//!
//! A table of thousands of rows is drawn [`DRAWN`] rows at a time inside a
//! box of fixed height; two empty rows above and below stand for the rest,
//! so the scroll bar is the whole table's. The window moves in steps of
//! [`STEP`] rows, so that scrolling redraws it once every `STEP` rows, and
//! always holds a step above and more than a screen below the first row in
//! view.

use std::ops::Range;

/// Rows drawn at once (80 rows of a 10-run heatmap: ~25 ms of script,
/// parse and layout on a slow machine).
pub const DRAWN: usize = 80;

/// The window moves in steps of this many rows.
pub const STEP: usize = 24;

/// The rows a virtualised table's box is taken to show until its height is
/// known (its CSS height, 36rem, holds ~22 rows of 26 px): the window holds
/// at least `DRAWN − 2·STEP` = 32 rows from the first in view, more than this.
pub const VISIBLE: usize = 24;

/// The number of rows drawn at once for a box `view_px` high of rows
/// `row_px` high: [`DRAWN`], or more when the box shows more than
/// `DRAWN − 2·STEP` rows (a tall box: the reader's list is the window's
/// height), so that a step above and every row in view are always drawn.
#[must_use]
pub fn drawn_len(row_px: f64, view_px: f64) -> usize {
    if !(row_px > 0.0 && view_px.is_finite() && view_px > 0.0) {
        return DRAWN;
    }
    // Saturating float-to-int cast: a box of millions of pixels is capped.
    let shown = (view_px / row_px).ceil() as usize;
    DRAWN.max(shown.saturating_add(2 * STEP + 1))
}

/// The drawn rows of a table of `n` rows `row_px` high whose first row is
/// `top` pixels above the top of its scrolling box (0 or less: not yet
/// scrolled into), in a box `view_px` high (0 or NaN: not yet measured).
#[must_use]
pub fn drawn(top: f64, row_px: f64, view_px: f64, n: usize) -> Range<usize> {
    let len = drawn_len(row_px, view_px);
    if n <= len || row_px.is_nan() || row_px <= 0.0 || !top.is_finite() {
        return 0..n.min(len);
    }
    // Saturating float-to-int cast: a top below zero is row 0.
    let at = (top.max(0.0) / row_px) as usize;
    let first = ((at / STEP).saturating_sub(1) * STEP).min(n - len);
    first..first + len
}

/// The heights in pixels of the empty rows above and below `rows` of `n`.
#[must_use]
pub fn pads(rows: &Range<usize>, n: usize, row_px: f64) -> (f64, f64) {
    let above = rows.start as f64 * row_px;
    let below = n.saturating_sub(rows.end) as f64 * row_px;
    (above, below)
}

/// The empty row that stands for `px` pixels of rows not drawn (none for 0).
#[must_use]
pub fn pad_html(px: f64) -> String {
    if px > 0.0 {
        format!(r#"<tr class="pad" aria-hidden="true" style="height: {px:.0}px"></tr>"#)
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_tables_are_drawn_whole() {
        assert_eq!(drawn(0.0, 24.0, 0.0, 0), 0..0);
        assert_eq!(drawn(5_000.0, 24.0, 576.0, DRAWN), 0..DRAWN);
        assert_eq!(drawn(f64::NAN, 24.0, 576.0, 1_000), 0..DRAWN);
        assert_eq!(drawn(100.0, 0.0, 576.0, 1_000), 0..DRAWN);
        assert_eq!(drawn(100.0, 24.0, f64::NAN, 1_000).len(), DRAWN);
    }

    #[test]
    fn the_window_holds_the_rows_in_view_and_moves_in_steps() {
        let n = 1_000;
        let h = 24.0;
        let mut redraws = 0;
        let view = VISIBLE as f64 * h;
        let mut last = drawn(0.0, h, view, n);
        for px in 0..(n as u32 * 24) {
            let top = f64::from(px);
            let w = drawn(top, h, view, n);
            assert_eq!(w.len(), DRAWN);
            let at = (top / h) as usize;
            // Every row in view (VISIBLE from `at`) is drawn.
            assert!(
                w.start <= at && (at + VISIBLE).min(n) <= w.end,
                "{top}: {w:?}"
            );
            assert!(
                w.start.is_multiple_of(STEP) || w.start == n - DRAWN,
                "{w:?}"
            );
            if w != last {
                redraws += 1;
                last = w;
            }
        }
        // One redraw per step, until the window reaches the end.
        assert_eq!(redraws, (n - DRAWN).div_ceil(STEP));
        assert_eq!(drawn(1e12, h, view, n), n - DRAWN..n);
        assert_eq!(drawn(-50.0, h, view, n), 0..DRAWN);
    }

    #[test]
    fn a_tall_box_draws_every_row_in_view() {
        // The reader's list is as tall as the window: 1,400 px of 26 px rows
        // shows 54 rows, more than `DRAWN − 2·STEP`.
        let (n, h, view) = (900_usize, 26.0_f64, 1_400.0_f64);
        let shown = (view / h).ceil() as usize;
        assert!(shown > DRAWN - 2 * STEP);
        for px in (0..(n as u32 * 26)).step_by(7) {
            let top = f64::from(px);
            let w = drawn(top, h, view, n);
            let at = (top / h) as usize;
            assert!(
                w.start <= at && (at + shown).min(n) <= w.end,
                "{top}: {w:?}"
            );
            assert!(w.len() > shown + STEP, "{w:?}");
        }
        // A short table in a tall box is drawn whole.
        assert_eq!(drawn(300.0, h, view, 100), 0..100);
    }

    #[test]
    fn pads_stand_for_the_rows_not_drawn() {
        let rows = 40..160;
        assert_eq!(pads(&rows, 1_000, 24.0), (960.0, 840.0 * 24.0));
        assert_eq!(pad_html(0.0), "");
        assert_eq!(
            pad_html(960.0),
            r#"<tr class="pad" aria-hidden="true" style="height: 960px"></tr>"#
        );
    }
}
