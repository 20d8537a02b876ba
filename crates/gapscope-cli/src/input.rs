//! Reading an input file whole, with a size cap (issue 14; docs/limits.md
//! "Input files"). Every whole-file read of the CLI goes through
//! [`read_input_file`] or [`read_input_text`]: a regular file larger than the
//! cap is refused before it is read; a device or pipe of unknown size (e.g.
//! `/dev/zero`, which never ends) is read until one byte past the cap and
//! then refused. The buffer grows as data arrives (never from a declared
//! size), and an allocation that fails is a located error, not an abort.

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest input file read whole: 4 GiB.
pub const MAX_INPUT_BYTES: u64 = 4 << 30;

/// Why an input file was not read. Shown as `PATH: …`.
#[derive(Debug)]
pub enum InputError {
    /// Opening or reading failed (the operating system's message).
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// A regular file larger than the cap.
    TooLarge { path: PathBuf, size: u64, cap: u64 },
    /// A stream (device, pipe) that went on past the cap.
    NoEnd { path: PathBuf, cap: u64 },
    /// The buffer could not grow to `want` bytes after `read` were read.
    Memory {
        path: PathBuf,
        read: usize,
        want: usize,
    },
    /// A text input with a byte that is not UTF-8.
    NotUtf8 {
        path: PathBuf,
        source: gapscope_data::text::NotUtf8,
    },
}

/// `4294967296 bytes (4 GiB)`; `3145728 bytes (3 MiB)`; `9 bytes`.
fn bytes(n: u64) -> String {
    if n >= 1 << 30 && n.is_multiple_of(1 << 30) {
        format!("{n} bytes ({} GiB)", n >> 30)
    } else if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{n} bytes ({} MiB)", n >> 20)
    } else {
        format!("{n} bytes")
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            InputError::TooLarge { path, size, cap } => write!(
                f,
                "{}: the file is {size} bytes, more than the {} an input file may have",
                path.display(),
                bytes(*cap)
            ),
            InputError::NoEnd { path, cap } => write!(
                f,
                "{}: not read: more than the {} an input file may have, and it did not end",
                path.display(),
                bytes(*cap)
            ),
            InputError::Memory { path, read, want } => write!(
                f,
                "{}: out of memory reading the file: {read} bytes read, {want} bytes could not be allocated",
                path.display()
            ),
            InputError::NotUtf8 { path, source } => {
                write!(f, "{}: {source}; save the file as UTF-8", path.display())
            }
        }
    }
}

impl From<InputError> for String {
    fn from(e: InputError) -> String {
        e.to_string()
    }
}

/// `path` opened, with its size when it is a regular file; a regular file
/// over `cap` is refused before anything is read.
fn open_capped(path: &Path, cap: u64) -> Result<(std::fs::File, Option<u64>), InputError> {
    let file = std::fs::File::open(path).map_err(|error| InputError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    let known = file
        .metadata()
        .ok()
        .filter(std::fs::Metadata::is_file)
        .map(|m| m.len());
    if let Some(size) = known.filter(|&s| s > cap) {
        return Err(InputError::TooLarge {
            path: path.to_path_buf(),
            size,
            cap,
        });
    }
    Ok((file, known))
}

/// The bytes of `path`, at most `cap` of them (see the module doc).
pub fn read_input_file(path: &Path, cap: u64) -> Result<Vec<u8>, InputError> {
    let io = |error| InputError::Io {
        path: path.to_path_buf(),
        error,
    };
    let (mut file, known) = open_capped(path, cap)?;
    // One byte past the cap tells a stream that goes on from one that ends.
    let limit = usize::try_from(cap.saturating_add(1)).unwrap_or(usize::MAX);
    let mut out: Vec<u8> = Vec::new();
    let memory = |read: usize, want: usize| InputError::Memory {
        path: path.to_path_buf(),
        read,
        want,
    };
    if let Some(size) = known {
        // A regular file's length (≤ cap) is known: one allocation, plus the
        // probe byte.
        let want = usize::try_from(size)
            .unwrap_or(usize::MAX)
            .saturating_add(1);
        out.try_reserve_exact(want).map_err(|_| memory(0, want))?;
    }
    let mut chunk = vec![0u8; 1 << 20];
    loop {
        let room = limit - out.len();
        if room == 0 {
            break;
        }
        let want = room.min(chunk.len());
        let n = match file.read(&mut chunk[..want]) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io(e)),
        };
        if out.capacity() - out.len() < n {
            // Double, but never past the limit.
            let grow = out.capacity().max(n).max(1 << 20).min(limit - out.len());
            out.try_reserve_exact(grow)
                .map_err(|_| memory(out.len(), out.len() + grow))?;
        }
        out.extend_from_slice(&chunk[..n]);
    }
    if out.len() as u64 > cap {
        return Err(match known {
            // A regular file that grew while it was read.
            Some(_) => InputError::TooLarge {
                path: path.to_path_buf(),
                size: out.len() as u64,
                cap,
            },
            None => InputError::NoEnd {
                path: path.to_path_buf(),
                cap,
            },
        });
    }
    Ok(out)
}

/// The text of `path` (UTF-8), at most `cap` bytes.
pub fn read_input_text(path: &Path, cap: u64) -> Result<String, InputError> {
    let bytes = read_input_file(path, cap)?;
    String::from_utf8(bytes).map_err(|e| InputError::NotUtf8 {
        path: path.to_path_buf(),
        source: gapscope_data::text::NotUtf8::at(e.as_bytes(), e.utf8_error().valid_up_to()),
    })
}

/// An input file opened to be read as a stream (the core parses canonical
/// JSONL line by line as it arrives, so a large file is never held whole;
/// other formats it reads whole), under the same cap as [`read_input_file`]:
/// a regular file over the cap is refused before it is read, and a stream
/// that goes past it (a device, a pipe, a file that grows) fails at one byte
/// past the cap. [`Stream::explain`] turns the core's error into the same
/// located message as [`read_input_file`] gives when the cap was the cause.
pub struct Stream {
    path: PathBuf,
    cap: u64,
    /// The file's size, when it is a regular file.
    known: Option<u64>,
    /// Bytes read past the cap (set by the reader).
    over: std::rc::Rc<std::cell::Cell<Option<u64>>>,
    file: Option<std::fs::File>,
}

impl Stream {
    pub fn open(path: &Path, cap: u64) -> Result<Stream, InputError> {
        let (file, known) = open_capped(path, cap)?;
        Ok(Stream {
            path: path.to_path_buf(),
            cap,
            known,
            over: std::rc::Rc::default(),
            file: Some(file),
        })
    }

    /// The reader (once): the file, failing one byte past the cap.
    pub fn reader(&mut self) -> Box<dyn Read> {
        Box::new(Capped {
            inner: self.file.take(),
            cap: self.cap,
            read: 0,
            over: self.over.clone(),
        })
    }

    /// The message for an error of the read: the cap's own when the stream
    /// went past it, else the core's.
    pub fn explain(&self, error: impl fmt::Display) -> String {
        match self.over.get() {
            None => error.to_string(),
            Some(read) => match self.known {
                Some(_) => InputError::TooLarge {
                    path: self.path.clone(),
                    size: read,
                    cap: self.cap,
                },
                None => InputError::NoEnd {
                    path: self.path.clone(),
                    cap: self.cap,
                },
            }
            .to_string(),
        }
    }
}

/// A reader that fails (and says so in `over`: the bytes read) once more
/// than `cap` bytes would have been read.
struct Capped {
    inner: Option<std::fs::File>,
    cap: u64,
    read: u64,
    over: std::rc::Rc<std::cell::Cell<Option<u64>>>,
}

impl Read for Capped {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let Some(inner) = self.inner.as_mut() else {
            return Ok(0);
        };
        if buf.is_empty() {
            return Ok(0);
        }
        let left = self.cap - self.read;
        if left == 0 {
            // One byte past the cap tells a stream that goes on from one that ends.
            let mut probe = [0u8; 1];
            if inner.read(&mut probe)? == 0 {
                return Ok(0);
            }
            self.over.set(Some(self.read + 1));
            return Err(std::io::Error::other("more than the input cap"));
        }
        let want = usize::try_from(left).map_or(buf.len(), |l| l.min(buf.len()));
        let n = inner.read(&mut buf[..want])?;
        self.read += n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_device_that_never_ends_stops_one_byte_past_the_cap() {
        let e = read_input_file(Path::new("/dev/zero"), 3 << 20).unwrap_err();
        assert_eq!(
            e.to_string(),
            "/dev/zero: not read: more than the 3145728 bytes (3 MiB) an input file may have, and it did not end"
        );
    }

    #[test]
    fn a_stream_stops_one_byte_past_the_cap_with_the_same_message() {
        let mut s = Stream::open(Path::new("/dev/zero"), 3 << 20).unwrap();
        let mut out = Vec::new();
        let e = s.reader().read_to_end(&mut out).unwrap_err();
        assert_eq!(out.len(), 3 << 20);
        assert_eq!(
            s.explain(e),
            "/dev/zero: not read: more than the 3145728 bytes (3 MiB) an input file may have, and it did not end"
        );
        let dir = std::env::temp_dir().join(format!("gapscope-stream-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("ten.txt");
        std::fs::write(&p, b"0123456789").unwrap();
        let mut s = Stream::open(&p, 10).unwrap();
        let mut out = Vec::new();
        s.reader().read_to_end(&mut out).unwrap();
        assert_eq!(out, b"0123456789");
        assert_eq!(s.explain("other"), "other");
        assert_eq!(
            Stream::open(&p, 9).err().unwrap().to_string(),
            format!(
                "{}: the file is 10 bytes, more than the 9 bytes an input file may have",
                p.display()
            )
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn regular_files_up_to_the_cap_are_read_and_larger_ones_refused() {
        let dir = std::env::temp_dir().join(format!("gapscope-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("ten.txt");
        std::fs::write(&p, b"0123456789").unwrap();
        assert_eq!(read_input_file(&p, 10).unwrap(), b"0123456789");
        assert_eq!(read_input_text(&p, 100).unwrap(), "0123456789");
        let e = read_input_file(&p, 9).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{}: the file is 10 bytes, more than the 9 bytes an input file may have",
                p.display()
            )
        );
        std::fs::write(&p, b"ab\xffcd").unwrap();
        assert_eq!(
            read_input_text(&p, 100).unwrap_err().to_string(),
            format!(
                "{}: line 1: not UTF-8 text (invalid byte at offset 2); save the file as UTF-8",
                p.display()
            )
        );
        let e = read_input_file(&dir.join("missing"), 9).unwrap_err();
        assert!(
            e.to_string()
                .starts_with(&format!("{}: ", dir.join("missing").display())),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
