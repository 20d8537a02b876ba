//! The text of an input file: UTF-8, or one located error that every reader
//! and both adapters share.

/// Bytes that are not UTF-8: the 1-based line and the byte offset of the
/// first invalid byte. The file name is added at the edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: not UTF-8 text (invalid byte at offset {offset})")]
pub struct NotUtf8 {
    pub line: u64,
    pub offset: usize,
}

impl NotUtf8 {
    /// The error of an invalid byte at `offset` of `bytes`.
    pub fn at(bytes: &[u8], offset: usize) -> Self {
        NotUtf8 {
            line: line_of_offset(bytes, offset),
            offset,
        }
    }
}

/// `bytes` as text, or where they stop being UTF-8.
pub fn utf8(bytes: &[u8]) -> Result<&str, NotUtf8> {
    std::str::from_utf8(bytes).map_err(|e| NotUtf8::at(bytes, e.valid_up_to()))
}

/// The 1-based line of a byte offset.
pub fn line_of_offset(bytes: &[u8], offset: usize) -> u64 {
    1 + bytes[..offset.min(bytes.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_invalid_byte_is_located_by_line_and_offset() {
        // "ab\ncd\n" then 0xff: line 3, offset 6 (counted by hand).
        let bytes = b"ab\ncd\n\xffz";
        let e = utf8(bytes).unwrap_err();
        assert_eq!(e, NotUtf8 { line: 3, offset: 6 });
        assert_eq!(
            e.to_string(),
            "line 3: not UTF-8 text (invalid byte at offset 6)"
        );
        assert_eq!(utf8(b"fine\n"), Ok("fine\n"));
    }
}
