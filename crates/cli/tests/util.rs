//! Running the `solved` binary with a private data directory.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A `solved` with its own, initially empty, table cache.
pub struct Solved {
    data: tempfile::TempDir,
}

/// What a finished run printed and returned.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn json(&self) -> serde_json::Value {
        assert_eq!(self.code, 0, "run failed: {}", self.stderr);
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.stdout))
    }

    /// Asserts the run failed with exit code 2 and one line on stderr
    /// (besides notes of tables saved on the way) containing `text`.
    pub fn fails_with(&self, text: &str) {
        assert_eq!(self.code, 2, "expected failure, got {self:?}");
        let lines: Vec<&str> = self.stderr.lines().filter(|l| !l.starts_with("solved: saved ")).collect();
        assert_eq!(lines.len(), 1, "expected one line of error, got {:?}", self.stderr);
        assert!(lines[0].starts_with("solved: "), "{}", lines[0]);
        assert!(lines[0].contains(text), "{:?} does not mention {text:?}", lines[0]);
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
    }
}

impl Solved {
    pub fn new() -> Solved {
        Solved { data: tempfile::tempdir().expect("a temporary directory") }
    }

    pub fn data_dir(&self) -> PathBuf {
        self.data.path().to_path_buf()
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_solved"));
        command.arg("--data-dir").arg(self.data.path()).args(args).env_remove("SOLVED_DATA_DIR");
        command
    }

    pub fn run(&self, args: &[&str]) -> Run {
        self.run_with_input(args, "")
    }

    pub fn run_with_input(&self, args: &[&str], input: &str) -> Run {
        self.run_command(self.command(args), input)
    }

    /// Runs `solved` allowed at most `files` open files, as `ulimit -n`
    /// sets (many systems allow 1,024, some 256).
    pub fn run_with_open_files(&self, args: &[&str], files: u32, input: &str) -> Run {
        let solved = self.command(args);
        let mut command = Command::new("sh");
        command.arg("-c").arg(r#"ulimit -n "$0" && exec "$@""#).arg(files.to_string()).arg(solved.get_program());
        command.args(solved.get_args()).env_remove("SOLVED_DATA_DIR");
        self.run_command(command, input)
    }

    /// Runs `solved` with the environment variable `name` set to `value`.
    pub fn run_with_env(&self, args: &[&str], name: &str, value: &str) -> Run {
        let mut command = self.command(args);
        command.env(name, value);
        self.run_command(command, "")
    }

    fn run_command(&self, mut command: Command, input: &str) -> Run {
        let mut child =
            command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("solved starts");
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        let output = child.wait_with_output().unwrap();
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8(output.stdout).unwrap(),
            stderr: String::from_utf8(output.stderr).unwrap(),
        }
    }

    /// Runs `solved` with its stdout to `stdout` (a file such as
    /// `/dev/full`, say) and stdin from `stdin`.
    pub fn run_with_files(&self, args: &[&str], stdin: &str, stdout: &str) -> Run {
        let output = self
            .command(args)
            .stdin(std::fs::File::open(stdin).unwrap())
            .stdout(std::fs::OpenOptions::new().write(true).open(stdout).unwrap())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::new(),
            stderr: String::from_utf8(output.stderr).unwrap(),
        }
    }

    /// Runs `solved` and stops reading its output after `bytes` bytes, as
    /// `| head -c` does.
    pub fn run_reading(&self, args: &[&str], bytes: usize) -> Run {
        let mut child =
            self.command(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut head = vec![0; bytes];
        stdout.read_exact(&mut head).unwrap();
        drop(stdout);
        let output = child.wait_with_output().unwrap();
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&head).into_owned(),
            stderr: String::from_utf8(output.stderr).unwrap(),
        }
    }

    /// Starts an interactive session.
    pub fn spawn(&self, args: &[&str]) -> Session {
        let mut child =
            self.command(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Session { child, stdin, stdout }
    }
}

/// A running interactive `solved`.
pub struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Session {
    /// The process's id, to signal it.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Reads output up to and including the next prompt (`> `), or to the
    /// end if the program finishes first. Returns the text and whether a
    /// prompt was reached.
    pub fn read_to_prompt(&mut self) -> (String, bool) {
        let mut text = Vec::new();
        loop {
            let mut byte = [0];
            match self.stdout.read(&mut byte).unwrap() {
                0 => return (String::from_utf8(text).unwrap(), false),
                _ => text.push(byte[0]),
            }
            if text.ends_with(b"> ") {
                return (String::from_utf8(text).unwrap(), true);
            }
        }
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
    }

    pub fn finish(mut self) -> i32 {
        let mut rest = String::new();
        let _ = self.stdout.read_line(&mut rest);
        self.child.wait().unwrap().code().unwrap_or(-1)
    }
}
