// Shared helpers of the fuzz targets (included with `#[path]`).

/// Split the input at its first NUL byte into two texts (JSON and CSV never
/// contain a raw NUL, so seeds are `first + "\0" + second`).
#[allow(dead_code)]
pub fn split2(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[]),
    }
}

/// Lossy text of fuzz bytes (the text readers take `&str`; non-UTF-8 bytes are
/// the byte readers' business).
#[allow(dead_code)]
pub fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}
