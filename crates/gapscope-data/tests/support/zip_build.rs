//! Hand-built zip archives for the hostile `.eval` cases (shared by the core's
//! and the CLI's hostile tests through `#[path]`; no dependency): CRC-32, the
//! zip records, a fixed-Huffman deflate stream of zeros, zstd frames of RLE
//! blocks. Sizes are what the entry *declares*; the data may say otherwise.

#![allow(dead_code)]

/// CRC-32 (IEEE, as zip uses it).
pub fn crc32(data: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (i, t) in table.iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
        *t = c;
    }
    let mut crc = !0u32;
    for &b in data {
        crc = table[((crc ^ u32::from(b)) & 0xFF) as usize] ^ (crc >> 8);
    }
    !crc
}

/// One member: its name, zip method (0 stored, 8 deflate, 93 zstd), the bytes
/// as stored in the archive, and what its entry declares.
#[derive(Clone)]
pub struct Member {
    pub name: String,
    pub method: u16,
    pub raw: Vec<u8>,
    pub size: u32,
    pub crc: u32,
}

impl Member {
    /// A stored member with its true size and CRC.
    pub fn stored(name: &str, data: &[u8]) -> Member {
        Member {
            name: name.into(),
            method: 0,
            raw: data.to_vec(),
            size: data.len() as u32,
            crc: crc32(data),
        }
    }

    /// A zstd member holding `data` in raw blocks, true size and CRC.
    pub fn zstd_raw(name: &str, data: &[u8]) -> Member {
        let mut raw = zstd_header(Some(data.len() as u64));
        let chunks: Vec<&[u8]> = data.chunks(1 << 17).collect();
        if chunks.is_empty() {
            raw.extend(block_header(true, 0, 0));
        }
        for (k, c) in chunks.iter().enumerate() {
            raw.extend(block_header(k + 1 == chunks.len(), 0, c.len()));
            raw.extend_from_slice(c);
        }
        Member {
            name: name.into(),
            method: 93,
            raw,
            size: data.len() as u32,
            crc: crc32(data),
        }
    }

    /// A deflate member whose stream inflates to `actual` zero bytes while the
    /// entry declares `declared` (CRC 0: it is never reached).
    pub fn deflate_zeros(name: &str, declared: u32, actual: u64) -> Member {
        Member {
            name: name.into(),
            method: 8,
            raw: deflate_zeros(actual),
            size: declared,
            crc: 0,
        }
    }

    /// A zstd member of one frame of RLE blocks giving `actual` zero bytes,
    /// the frame header declaring `frame_size`, the entry `declared`.
    pub fn zstd_zeros(name: &str, declared: u32, frame_size: Option<u64>, actual: u64) -> Member {
        let mut raw = zstd_header(frame_size);
        let mut left = actual;
        loop {
            let n = left.min(1 << 17);
            left -= n;
            raw.extend(block_header(left == 0, 1, n as usize));
            raw.push(0);
            if left == 0 {
                break;
            }
        }
        Member {
            name: name.into(),
            method: 93,
            raw,
            size: declared,
            crc: 0,
        }
    }
}

/// A zstd frame header: 8-byte content size when given, a 128 KiB window.
fn zstd_header(content_size: Option<u64>) -> Vec<u8> {
    let mut h = vec![0x28, 0xB5, 0x2F, 0xFD];
    if let Some(s) = content_size {
        h.push(0xC0); // 8-byte content size, not single-segment
        h.push(7 << 3); // window 2^(10+7)
        h.extend(s.to_le_bytes());
    } else {
        h.push(0x00);
        h.push(7 << 3);
    }
    h
}

fn block_header(last: bool, kind: u32, size: usize) -> [u8; 3] {
    let v = u32::from(last) | (kind << 1) | ((size as u32) << 3);
    [v as u8, (v >> 8) as u8, (v >> 16) as u8]
}

/// A raw deflate stream (one fixed-Huffman block) inflating to `n` zeros:
/// literal 0, then length 258 at distance 1 as often as needed.
pub fn deflate_zeros(n: u64) -> Vec<u8> {
    struct Bits {
        out: Vec<u8>,
        acc: u64,
        len: u32,
    }
    impl Bits {
        fn put(&mut self, v: u64, n: u32) {
            self.acc |= v << self.len;
            self.len += n;
            while self.len >= 8 {
                self.out.push(self.acc as u8);
                self.acc >>= 8;
                self.len -= 8;
            }
        }
        // Huffman codes go most significant bit first.
        fn code(&mut self, code: u64, n: u32) {
            let mut r = 0;
            for i in 0..n {
                r |= ((code >> i) & 1) << (n - 1 - i);
            }
            self.put(r, n);
        }
    }
    let mut b = Bits {
        out: Vec::with_capacity((n / 258 * 13 / 8 + 16) as usize),
        acc: 0,
        len: 0,
    };
    b.put(1, 1); // final block
    b.put(1, 2); // fixed Huffman
    let mut left = n;
    if left > 0 {
        b.code(0x30, 8); // literal 0
        left -= 1;
    }
    while left > 0 {
        let l = left.min(258);
        if l < 3 {
            for _ in 0..l {
                b.code(0x30, 8);
            }
        } else if l == 258 {
            b.code(0b1100_0101, 8); // code 285: length 258
            b.code(0, 5); // distance 1
        } else {
            // Lengths 3..=10 are codes 257..=264 (7-bit codes 1..=8), else literals.
            if l <= 10 {
                b.code(l - 2, 7);
                b.code(0, 5);
            } else {
                for _ in 0..l {
                    b.code(0x30, 8);
                }
            }
        }
        left -= l;
    }
    b.code(0, 7); // end of block (256)
    b.put(0, 7);
    b.out
}

/// The archive of `members`, plus `aliases`: more central-directory entries
/// `(name, k)` that point at member `k`'s local header (entries that overlap).
pub fn zip(members: &[Member], aliases: &[(&str, usize)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut offsets = Vec::new();
    for m in members {
        offsets.push(out.len() as u32);
        out.extend(0x0403_4b50u32.to_le_bytes());
        out.extend(20u16.to_le_bytes());
        out.extend(0u16.to_le_bytes());
        out.extend(m.method.to_le_bytes());
        out.extend(0u16.to_le_bytes());
        out.extend(0x21u16.to_le_bytes());
        out.extend(m.crc.to_le_bytes());
        out.extend((m.raw.len() as u32).to_le_bytes());
        out.extend(m.size.to_le_bytes());
        out.extend((m.name.len() as u16).to_le_bytes());
        out.extend(0u16.to_le_bytes());
        out.extend(m.name.as_bytes());
        out.extend(&m.raw);
    }
    let cd_start = out.len() as u32;
    let mut entries: Vec<(&str, usize)> = members
        .iter()
        .enumerate()
        .map(|(k, m)| (m.name.as_str(), k))
        .collect();
    entries.extend_from_slice(aliases);
    for (name, k) in &entries {
        let m = &members[*k];
        out.extend(0x0201_4b50u32.to_le_bytes());
        out.extend(20u16.to_le_bytes());
        out.extend(20u16.to_le_bytes());
        out.extend(0u16.to_le_bytes());
        out.extend(m.method.to_le_bytes());
        out.extend(0u16.to_le_bytes());
        out.extend(0x21u16.to_le_bytes());
        out.extend(m.crc.to_le_bytes());
        out.extend((m.raw.len() as u32).to_le_bytes());
        out.extend(m.size.to_le_bytes());
        out.extend((name.len() as u16).to_le_bytes());
        out.extend([0u8; 12]); // extra, comment, disk, attributes
        out.extend(offsets[*k].to_le_bytes());
        out.extend(name.as_bytes());
    }
    let cd_size = out.len() as u32 - cd_start;
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0u8; 4]);
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend(cd_size.to_le_bytes());
    out.extend(cd_start.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

/// A header and one sample of a log: enough for the reader to go on.
pub const HEADER: &str = r#"{"version": 2, "eval": {"task": "t", "model": "m"}, "results": {"scores": [{"name": "match", "scorer": "match"}]}}"#;

/// A sample scored `value` ("C" or "I").
pub fn sample(id: &str, value: &str) -> String {
    format!(
        r#"{{"id": "{id}", "epoch": 1, "messages": [{{"role": "user", "content": "hi"}}], "scores": {{"match": {{"value": "{value}"}}}}}}"#
    )
}
