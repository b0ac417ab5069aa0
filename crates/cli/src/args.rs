//! What the user typed: clap's view of the command line.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Strongly solve small board games, and play and study them against
/// perfect play.
#[derive(Debug, Parser)]
#[command(name = "solved", version, about, propagate_version = true)]
pub struct Cli {
    /// Where solved tables are cached [default: $SOLVED_DATA_DIR, else
    /// $XDG_DATA_HOME/solved, else ~/.local/share/solved].
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,

    /// Worker threads for solving [default: one per core].
    #[arg(long, global = true, value_name = "N")]
    pub threads: Option<usize>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve every position of a game (or load the cached table) and summarise.
    Solve {
        #[command(subcommand)]
        game: SolveGame,
    },
    /// Show a position's value and every move's value.
    Probe {
        #[command(subcommand)]
        game: ProbeGame,
    },
    /// Re-check every published claim about a game.
    Verify {
        #[command(subcommand)]
        game: VerifyGame,
    },
    /// Play a game in the terminal against the perfect player.
    Play {
        #[command(subcommand)]
        game: PlayGame,
    },
    /// Time the solver with 1 and more threads, with peak memory.
    Bench {
        #[command(subcommand)]
        game: BenchGame,
    },
    /// Re-check every solved value against its children, with the plain rules.
    Audit {
        #[command(subcommand)]
        game: AuditGame,
    },
    /// Make the compact copy of a game's table and check it entry by entry.
    Compact {
        #[command(subcommand)]
        game: CompactGame,
    },
    /// Reports on a solved game.
    Report {
        #[command(subcommand)]
        game: ReportGame,
    },
    /// Count a game's domain: positions, moves, terminal positions.
    Census {
        #[command(subcommand)]
        game: CensusGame,
    },
    /// Serve the web app: every game against the perfect player, with hints.
    Serve {
        /// The address to listen on.
        #[arg(long, default_value = "127.0.0.1:8080", value_name = "IP:PORT")]
        addr: std::net::SocketAddr,
    },
    /// One timed solve in this process (used by `bench`).
    #[command(hide = true)]
    BenchRun {
        #[command(subcommand)]
        game: SolveGame,
    },
}

/// Print results as JSON.
#[derive(Debug, Args)]
pub struct Output {
    /// Print the result as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Which Dodgem.
#[derive(Debug, Args)]
pub struct DodgemArgs {
    /// Board size (2 to 5).
    #[arg(long, value_name = "N")]
    pub size: u32,
    /// Misère: getting all your cars off, or having no move, loses.
    #[arg(long)]
    pub misere: bool,
}

/// Which Dots and Boxes board.
#[derive(Debug, Args)]
pub struct BoardArgs {
    /// Rows of boxes.
    #[arg(long, value_name = "R")]
    pub rows: u8,
    /// Columns of boxes.
    #[arg(long, value_name = "C")]
    pub cols: u8,
    /// Lines drawn before the game: american (none), swedish (the outer
    /// boundary) or icelandic (the left and bottom boundary).
    #[arg(long, default_value = "american")]
    pub variant: String,
}

/// A Dots and Boxes player.
#[derive(Copy, Clone, Debug, ValueEnum)]
pub enum BoxesPlayer {
    /// Moves first.
    #[value(name = "A", alias = "a")]
    A,
    /// Moves second.
    #[value(name = "B", alias = "b")]
    B,
}

/// Which Snakes and Ladders board, and the questions asked of it.
#[derive(Debug, Args)]
pub struct SnakesArgs {
    /// A built-in board (example-30, milton-bradley, milton-bradley-47) or
    /// a board file.
    #[arg(long, value_name = "NAME|FILE", conflicts_with_all = ["goal", "jumps"])]
    pub board: Option<String>,
    /// The goal of an inline board (positions 0 to G).
    #[arg(long, value_name = "G", requires = "jumps")]
    pub goal: Option<u64>,
    /// The jumps of an inline board: FROM:TO,FROM:TO,...
    #[arg(long, value_name = "LIST", requires = "goal")]
    pub jumps: Option<String>,
    /// How an inline board is numbered: squares (0 is off the board) or
    /// cells (0 is the first cell).
    #[arg(long, default_value = "squares", value_parser = ["squares", "cells"])]
    pub numbering: String,
    /// What a roll past the goal does: stay, bounce or pass.
    #[arg(long, default_value = "stay")]
    pub overshoot: String,
    /// Also give the expected turns from every square.
    #[arg(long)]
    pub per_square: bool,
    /// Also give P(the game ends on turn t) for t = 1 to T.
    #[arg(long, value_name = "T")]
    pub pmf: Option<usize>,
    /// Also give each of K players' chance of winning a race.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub players: Option<u32>,
}

/// Which Tic-Tac-Chec rules.
#[derive(Debug, Args)]
pub struct ChecArgs {
    /// May a pawn travelling back home capture? travel (yes, the canonical
    /// rule) or outbound (no).
    #[arg(long, default_value = "travel")]
    pub pawn: String,
}

#[derive(Debug, Subcommand)]
pub enum AuditGame {
    /// Tic-Tac-Chec (solves the table first if it is not cached).
    TicTacChec {
        #[command(flatten)]
        rules: ChecArgs,
        #[command(flatten)]
        output: Output,
    },
}

#[derive(Debug, Subcommand)]
pub enum CompactGame {
    /// Tic-Tac-Chec (solves the table first if it is not cached).
    TicTacChec {
        #[command(flatten)]
        rules: ChecArgs,
        #[command(flatten)]
        output: Output,
    },
}

/// A part of the Tic-Tac-Chec report.
#[derive(Copy, Clone, Debug, Eq, PartialEq, ValueEnum)]
pub enum ReportSection {
    /// A deterministic drawing line from the empty board until it repeats.
    Line,
    /// How often a side can win at once, and the defences.
    Threats,
    /// How the two pawn rules differ (needs both tables).
    Variants,
}

#[derive(Debug, Subcommand)]
pub enum ReportGame {
    /// Tic-Tac-Chec.
    TicTacChec {
        #[command(flatten)]
        rules: ChecArgs,
        /// The parts to report.
        #[arg(long, value_enum, value_delimiter = ',', default_value = "line,threats,variants")]
        sections: Vec<ReportSection>,
        #[command(flatten)]
        output: Output,
    },
}

#[derive(Debug, Subcommand)]
pub enum CensusGame {
    /// Tic-Tac-Chec's post-opening domain.
    TicTacChec {
        #[command(flatten)]
        rules: ChecArgs,
        #[command(flatten)]
        output: Output,
    },
}

#[derive(Debug, Subcommand)]
pub enum SolveGame {
    /// Dodgem.
    Dodgem {
        #[command(flatten)]
        game: DodgemArgs,
        #[command(flatten)]
        output: Output,
    },
    /// Dots and Boxes.
    DotsAndBoxes {
        #[command(flatten)]
        board: BoardArgs,
        #[command(flatten)]
        output: Output,
    },
    /// Snakes and Ladders: fewest throws, exact expected length,
    /// distribution of lengths.
    Snakes {
        #[command(flatten)]
        board: SnakesArgs,
        #[command(flatten)]
        output: Output,
    },
    /// Tic-Tac-Chec: every position after the opening and in it.
    TicTacChec {
        #[command(flatten)]
        rules: ChecArgs,
        #[command(flatten)]
        output: Output,
    },
}

#[derive(Debug, Subcommand)]
pub enum ProbeGame {
    /// Dodgem.
    Dodgem {
        /// Board size (2 to 5) [default: the position's].
        #[arg(long, value_name = "N")]
        size: Option<u32>,
        /// Misère rules.
        #[arg(long)]
        misere: bool,
        /// The position, ranks from the top, e.g. "B../B../.RR B"
        /// [default: the start of a --size board].
        position: Option<String>,
        /// Moves to play first, e.g. "a3-b3 c1-c2".
        #[arg(long, value_name = "MOVES")]
        moves: Option<String>,
        #[command(flatten)]
        output: Output,
    },
    /// Dots and Boxes.
    DotsAndBoxes {
        #[command(flatten)]
        board: BoardArgs,
        /// The lines drawn so far, in order, in Wilson's notation and
        /// separated by commas, e.g. "ab,ba"; empty for the start.
        #[arg(conflicts_with = "diagram")]
        moves: Option<String>,
        /// Read the position from a Wilson diagram instead.
        #[arg(long, value_name = "FILE")]
        diagram: Option<std::path::PathBuf>,
        /// Who is to move in the diagram (needed once boxes are taken).
        #[arg(long, value_enum, requires = "diagram")]
        to_move: Option<BoxesPlayer>,
        #[command(flatten)]
        output: Output,
    },
    /// Tic-Tac-Chec.
    TicTacChec {
        #[command(flatten)]
        rules: ChecArgs,
        /// The position: ranks 4 to 1, side to move, pawn directions, phase,
        /// e.g. "..../..../..../.... w -- open".
        position: String,
        #[command(flatten)]
        output: Output,
    },
}

#[derive(Debug, Subcommand)]
pub enum VerifyGame {
    /// Dodgem (solves 3x3, 4x4 and 5x5 if they are not cached).
    Dodgem {
        #[command(flatten)]
        output: Output,
    },
    /// Dots and Boxes (solves the claimed boards if they are not cached).
    DotsAndBoxes {
        #[command(flatten)]
        output: Output,
    },
    /// Snakes and Ladders.
    Snakes {
        #[command(flatten)]
        output: Output,
    },
    /// Tic-Tac-Chec (solves the travel table if it is not cached, and
    /// counts the domain under both pawn rules).
    TicTacChec {
        #[command(flatten)]
        output: Output,
    },
}

/// A Dodgem side.
#[derive(Copy, Clone, Debug, ValueEnum)]
pub enum Side {
    /// Moves first.
    Blue,
    /// Moves second.
    Red,
}

#[derive(Debug, Subcommand)]
pub enum PlayGame {
    /// Dodgem.
    Dodgem {
        #[command(flatten)]
        game: DodgemArgs,
        /// Your side.
        #[arg(long = "as", value_enum, default_value = "blue")]
        side: Side,
        /// Show every move's value before you choose.
        #[arg(long)]
        hints: bool,
        /// Seed for the computer's choice among equally good moves.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Dots and Boxes.
    DotsAndBoxes {
        #[command(flatten)]
        board: BoardArgs,
        /// Your side: A moves first.
        #[arg(long = "as", value_enum, default_value = "A")]
        side: BoxesPlayer,
        /// Show every line's score before you choose.
        #[arg(long)]
        hints: bool,
        /// Seed for the computer's choice among equally good lines.
        #[arg(long)]
        seed: Option<u64>,
    },
}

#[derive(Debug, Subcommand)]
pub enum BenchGame {
    /// Dodgem.
    Dodgem {
        #[command(flatten)]
        game: DodgemArgs,
        /// Thread counts to compare, each in a fresh process.
        #[arg(long, value_delimiter = ',', default_value = "1,2", value_name = "N,N")]
        thread_counts: Vec<usize>,
        #[command(flatten)]
        output: Output,
    },
    /// Dots and Boxes.
    DotsAndBoxes {
        #[command(flatten)]
        board: BoardArgs,
        /// Thread counts to compare, each in a fresh process.
        #[arg(long, value_delimiter = ',', default_value = "1,2", value_name = "N,N")]
        thread_counts: Vec<usize>,
        #[command(flatten)]
        output: Output,
    },
    /// Tic-Tac-Chec: the full solve, post-opening and opening.
    TicTacChec {
        #[command(flatten)]
        rules: ChecArgs,
        /// Thread counts to compare, each in a fresh process.
        #[arg(long, value_delimiter = ',', default_value = "2", value_name = "N,N")]
        thread_counts: Vec<usize>,
        #[command(flatten)]
        output: Output,
    },
    /// Snakes and Ladders: the exact expectation of the 100-square board and
    /// of a generated 1,000-square board with 150 jumps.
    Snakes {
        /// Timed runs of each case (the median is reported).
        #[arg(long, default_value = "5", value_parser = clap::value_parser!(u32).range(1..=1000))]
        runs: u32,
        #[command(flatten)]
        output: Output,
    },
}
