//! The input, read as it is needed: a window of the bytes read and not yet consumed, so
//! that memory follows the value being read, not the size of the file.

use std::io::{ErrorKind, Read};

use crate::output::Fail;

/// The least a read asks for: small frames are taken from one read, not one each.
const READ_MIN: usize = 64 << 10;
/// The most a read asks for at once.
const READ_MAX: usize = 1 << 20;

/// A file or stdin, with the bytes read and not yet consumed.
pub struct Input {
    /// How messages name it: its path, or `-` for stdin.
    pub name: String,
    source: Box<dyn Read>,
    /// A regular file's size: what the input holds in all (else unknown until the end).
    size: Option<usize>,
    buf: Vec<u8>,
    /// The first byte of `buf` not consumed.
    start: usize,
    /// Stream offset of `buf[start]`.
    offset: usize,
    eof: bool,
}

impl Input {
    /// The file at `path`, or stdin for `-`.
    pub fn open(path: &str) -> Result<Input, Fail> {
        let (source, size): (Box<dyn Read>, _) = if path == "-" {
            (Box::new(std::io::stdin().lock()), None)
        } else {
            let file = std::fs::File::open(path)
                .map_err(|e| Fail::Io(format!("cannot read {path}: {e}")))?;
            let size = file
                .metadata()
                .ok()
                .filter(|m| m.is_file())
                .and_then(|m| usize::try_from(m.len()).ok());
            (Box::new(file), size)
        };
        Ok(Input {
            name: path.to_owned(),
            source,
            size,
            buf: Vec::new(),
            start: 0,
            offset: 0,
            eof: false,
        })
    }

    /// Stream offset of the first byte not consumed.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The bytes read and not consumed.
    pub fn available(&self) -> &[u8] {
        &self.buf[self.start..]
    }

    /// Whether the whole input has been read.
    pub fn at_eof(&self) -> bool {
        self.eof
    }

    /// How many bytes are left from the first one not consumed, when the input's size is
    /// known (a regular file).
    pub fn remaining(&self) -> Option<usize> {
        self.size.map(|size| size.saturating_sub(self.offset))
    }

    /// Reads until `want` bytes are available or the input ends. The buffer grows only by
    /// what is read: a length that announces more than the input holds costs no more than
    /// the input.
    pub fn fill(&mut self, want: usize) -> Result<(), Fail> {
        if self.available().len() >= want {
            return Ok(());
        }
        // Drop what is consumed once it is half the buffer: each byte is moved at most
        // about once.
        if self.start > 0 && self.start >= self.buf.len() / 2 {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        while self.available().len() < want && !self.eof {
            let chunk = (want - self.available().len()).clamp(READ_MIN, READ_MAX);
            let len = self.buf.len();
            self.buf.resize(len + chunk, 0);
            let read = self.read(len);
            self.buf.truncate(len + *read.as_ref().unwrap_or(&0));
            if read? == 0 {
                self.eof = true;
            }
        }
        Ok(())
    }

    /// Consumes `n` available bytes.
    pub fn consume(&mut self, n: usize) {
        debug_assert!(n <= self.available().len());
        self.start += n;
        self.offset += n;
    }

    /// Consumes the rest of the input without keeping it; returns how many bytes it held.
    pub fn skip_rest(&mut self) -> Result<usize, Fail> {
        let mut skipped = self.available().len();
        self.consume(skipped);
        self.buf.clear();
        self.start = 0;
        while !self.eof {
            self.buf.resize(READ_MAX, 0);
            let n = self.read(0)?;
            skipped += n;
            self.offset += n;
            self.eof = n == 0;
        }
        self.buf.clear();
        Ok(skipped)
    }

    /// One read into `buf[at..]`.
    fn read(&mut self, at: usize) -> Result<usize, Fail> {
        loop {
            match self.source.read(&mut self.buf[at..]) {
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                result => {
                    return result.map_err(|e| Fail::Io(format!("cannot read {}: {e}", self.name)))
                }
            }
        }
    }
}
