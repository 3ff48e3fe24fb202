//! Where the CLI writes: lines on stdout and messages on stderr, in the order they were
//! made, and binary output into a file (whole or not at all) or a pipe.

use std::io::{BufWriter, ErrorKind, IsTerminal, Stderr, Stdout, Write};
use std::path::PathBuf;

/// Why a command stops before its end.
pub enum Fail {
    /// A value is not valid, or the input is neither layout (exit 1).
    Data(String),
    /// An input or output cannot be read or written, or is the wrong kind (exit 2).
    Io(String),
    /// Stdout was closed by its reader (`| head`): the run ends quietly.
    Pipe,
}

fn write_error(e: std::io::Error, what: &str) -> Fail {
    if e.kind() == ErrorKind::BrokenPipe {
        Fail::Pipe
    } else {
        Fail::Io(format!("cannot write {what}: {e}"))
    }
}

/// Stdout's lines and stderr's messages, each buffered, the one flushed before the other
/// is written to so that a terminal shows them in order.
pub struct Output {
    out: BufWriter<Stdout>,
    err: BufWriter<Stderr>,
    /// The last thing written went to stderr.
    on_err: bool,
}

impl Output {
    pub fn new() -> Output {
        Output {
            out: BufWriter::new(std::io::stdout()),
            err: BufWriter::new(std::io::stderr()),
            on_err: false,
        }
    }

    /// A line on stdout.
    pub fn line(&mut self, line: &str) -> Result<(), Fail> {
        if self.on_err {
            let _ = self.err.flush();
            self.on_err = false;
        }
        writeln!(self.out, "{line}").map_err(|e| write_error(e, "the output"))
    }

    /// `godot-variant: MESSAGE` on stderr (which nothing more can be done about when it
    /// cannot be written).
    pub fn error(&mut self, message: &str) {
        if !self.on_err {
            let _ = self.out.flush();
            self.on_err = true;
        }
        let _ = writeln!(self.err, "godot-variant: {message}");
    }

    /// Writes out what is buffered.
    pub fn finish(&mut self) -> Result<(), Fail> {
        let _ = self.err.flush();
        self.out.flush().map_err(|e| write_error(e, "the output"))
    }

    /// Where binary output named `target` goes: stdout for `-` (not a terminal), else a
    /// file that is replaced only when [`Sink::commit`] is reached.
    pub fn binary(&mut self, target: &str) -> Result<Sink, Fail> {
        if target == "-" {
            if std::io::stdout().is_terminal() {
                return Err(Fail::Io(
                    "refusing to write binary data to a terminal: redirect stdout or name an \
                     output file"
                        .into(),
                ));
            }
            return Ok(Sink {
                writer: BufWriter::new(Box::new(std::io::stdout())),
                name: "the output".into(),
                file: None,
            });
        }
        let path = PathBuf::from(target);
        let file_name = path
            .file_name()
            .ok_or_else(|| Fail::Io(format!("cannot write {target}: not a file name")))?;
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(file_name);
        temp_name.push(format!(".godot-variant-{}.tmp", std::process::id()));
        let temp = path.with_file_name(temp_name);
        let file = std::fs::File::create(&temp)
            .map_err(|e| Fail::Io(format!("cannot write {target}: {e}")))?;
        Ok(Sink {
            writer: BufWriter::new(Box::new(file)),
            name: target.to_owned(),
            file: Some((temp, path)),
        })
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        let _ = self.finish();
    }
}

/// Binary output. A file is written beside its target and moved there by
/// [`commit`](Sink::commit); dropped before that, it is removed and the target left as it
/// was (also when the target is the input).
pub struct Sink {
    writer: BufWriter<Box<dyn Write>>,
    name: String,
    /// The file written and the target it becomes.
    file: Option<(PathBuf, PathBuf)>,
}

impl Sink {
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), Fail> {
        self.writer
            .write_all(bytes)
            .map_err(|e| write_error(e, &self.name))
    }

    /// Writes out what is buffered; a file then replaces its target.
    pub fn commit(mut self) -> Result<(), Fail> {
        self.writer
            .flush()
            .map_err(|e| write_error(e, &self.name))?;
        if let Some((temp, target)) = self.file.take() {
            std::fs::rename(&temp, &target).map_err(|e| {
                let _ = std::fs::remove_file(&temp);
                Fail::Io(format!("cannot write {}: {e}", self.name))
            })?;
        }
        Ok(())
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        if let Some((temp, _)) = self.file.take() {
            let _ = std::fs::remove_file(temp);
        }
    }
}
