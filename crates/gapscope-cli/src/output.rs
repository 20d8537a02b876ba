//! What the commands print: text made safe for a terminal, numbers in
//! columns, and the one write of a command's output to standard output.

use std::io::Write;
use std::process::ExitCode;

/// Write a command's output to standard output. `print!` panics when the
/// reader has gone (`gapscope … | head`): a closed pipe ends the output
/// quietly instead.
pub fn write_stdout(out: &str) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: writing the output: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Text for a terminal: control characters (ESC and the other C0 controls
/// but line feed and tab, DEL, the C1 controls) are shown escaped (`\u{1b}`)
/// instead of being sent to the terminal, which would act on them.
pub fn term_safe(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// `v` right-aligned in `width` with `prec` decimals; undefined is "—".
pub fn fmt_opt(v: Option<f64>, width: usize, prec: usize) -> String {
    match v {
        Some(x) => format!("{x:>width$.prec$}"),
        None => format!("{:>width$}", "—"),
    }
}

/// `[lo, hi]` with `prec` decimals; nothing when undefined.
pub fn fmt_ci(ci: Option<[f64; 2]>, prec: usize) -> String {
    match ci {
        Some([lo, hi]) => format!("[{lo:.prec$}, {hi:.prec$}]"),
        None => String::new(),
    }
}

/// Write `files` (name, text) into the folder `out`, created if needed;
/// the names written, joined with `, `. Errors name the path.
pub fn write_files(out: &std::path::Path, files: &[(String, String)]) -> Result<String, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    for (name, text) in files {
        let p = out.join(name);
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(files
        .iter()
        .map(|(n, _)| n.as_str())
        .collect::<Vec<_>>()
        .join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_for_the_terminal() {
        assert_eq!(
            term_safe("a\u{1b}[31mb\u{9b}c\u{7f}\n\td"),
            "a\\u{1b}[31mb\\u{9b}c\\u{7f}\n\td"
        );
    }
}
