//! Number formatting for display: the one place that turns a core number
//! into the text shown (a missing value is an em dash, never 0).

/// Format a number for display; `None` is an em dash.
pub fn fmt(value: Option<f64>, decimals: usize) -> String {
    match value {
        Some(v) => {
            let s = format!("{v:.decimals$}");
            // "-0.00" reads as a sign error; show it as zero.
            if s.trim_start_matches('-')
                .chars()
                .all(|c| c == '0' || c == '.')
            {
                s.trim_start_matches('-').to_string()
            } else {
                s.replace('-', "−")
            }
        }
        None => "—".to_string(),
    }
}

/// The longest file name an export is given.
pub const FILE_NAME_CHARS: usize = 80;

/// `name` if it has at most [`FILE_NAME_CHARS`] characters; otherwise its
/// start, a dash, 8 hex digits of a digest of the whole name (two long
/// names that share a start stay apart) and its extension, in
/// [`FILE_NAME_CHARS`] characters.
pub fn short_file_name(name: &str) -> String {
    if name.chars().count() <= FILE_NAME_CHARS {
        return name.to_string();
    }
    let (stem, ext) = match name.rfind('.') {
        Some(i) if name.len() - i <= 6 => (&name[..i], &name[i..]),
        _ => (name, ""),
    };
    // FNV-1a, 64 bits: a few lines for a stable name digest (not security;
    // the page has no hashing crate, and a name needs no more).
    let digest = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let keep = FILE_NAME_CHARS - ext.chars().count() - 9;
    let start: String = stem.chars().take(keep).collect();
    format!("{start}-{:08x}{ext}", digest >> 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_file_names_are_cut_to_80_characters_with_a_digest_and_their_extension() {
        assert_eq!(short_file_name("gapscope-runs.csv"), "gapscope-runs.csv");
        let long = format!("{}-tasks.csv", "a.json + b".repeat(12));
        let short = short_file_name(&long);
        assert_eq!(short.chars().count(), FILE_NAME_CHARS);
        assert!(
            short.rsplit_once('.').map(|(_, e)| e) == Some("csv")
                && short.starts_with("a.json + b"),
            "{short}"
        );
        let other = short_file_name(&format!("{}-pairs.csv", "a.json + b".repeat(12)));
        assert_ne!(short, other, "names sharing a start stay apart");
        let no_ext = short_file_name(&"é".repeat(100));
        assert_eq!(no_ext.chars().count(), FILE_NAME_CHARS);
    }

    #[test]
    fn numbers_read_well() {
        assert_eq!(fmt(Some(-3.24), 2), "−3.24");
        assert_eq!(fmt(Some(-0.001), 2), "0.00");
        assert_eq!(fmt(None, 2), "—");
    }
}
