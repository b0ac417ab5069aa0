//! The resolved configuration: what the command line means, validated.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use solved_engine::retrograde::SolveError;
use solved_engine::{Interrupted, TableStore};
use solved_games::dodgem::{Dodgem, Move, Objective, Position};
use solved_games::dots_and_boxes::{self, Board, Variant};
use solved_games::registry::Game;
use solved_games::tables::ObtainError;

use crate::args::{BoardArgs, BoxesPlayer, ChecArgs, Cli, DodgemArgs};

/// Settings every command shares.
#[derive(Debug)]
pub struct Config {
    /// The table cache.
    pub store: TableStore,
}

impl Config {
    pub fn resolve(cli: &Cli) -> anyhow::Result<Config> {
        if let Some(threads) = cli.threads {
            if threads == 0 {
                bail!("--threads must be at least 1");
            }
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build_global()
                .context("cannot start the worker threads")?;
        }
        Ok(Config { store: TableStore::new(data_dir(cli.data_dir.clone())?) })
    }
}

fn data_dir(flag: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    let from_env = |name| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = flag.or_else(|| from_env("SOLVED_DATA_DIR")) {
        return Ok(dir);
    }
    if let Some(dir) = from_env("XDG_DATA_HOME") {
        return Ok(dir.join("solved"));
    }
    match from_env("HOME") {
        Some(home) => Ok(home.join(".local/share/solved")),
        None => bail!("no data directory: set --data-dir or SOLVED_DATA_DIR"),
    }
}

pub fn objective(misere: bool) -> Objective {
    if misere { Objective::Misere } else { Objective::Normal }
}

pub fn dodgem(args: &DodgemArgs) -> anyhow::Result<Dodgem> {
    Ok(Dodgem::new(args.size, objective(args.misere))?)
}

/// The position a probe asks about: `position` (or the start of a `size`
/// board) after `moves`, each checked.
pub fn dodgem_position(size: Option<u32>, position: Option<&str>, moves: Option<&str>) -> anyhow::Result<Position> {
    let mut pos = match (position, size) {
        (Some(text), _) => text.parse::<Position>().with_context(|| format!("invalid position {text:?}"))?,
        (None, Some(size)) => Dodgem::new(size, Objective::Normal)?.start(),
        (None, None) => bail!("give a position, or --size for the starting position"),
    };
    if let Some(size) = size.filter(|&s| s != u32::from(pos.size())) {
        bail!("the position is on a {0}x{0} board, not {size}x{size}", pos.size());
    }
    let game = Dodgem::new(pos.size().into(), Objective::Normal)?;
    for (i, text) in moves.unwrap_or_default().split([' ', ',']).filter(|m| !m.is_empty()).enumerate() {
        let m = text.parse::<Move>().with_context(|| format!("move {}", i + 1))?;
        pos = game.play(&pos, m).with_context(|| format!("move {}", i + 1))?;
    }
    Ok(pos)
}

pub fn game(dodgem: &Dodgem) -> Game {
    Game::Dodgem(dodgem.clone())
}

pub fn board(args: &BoardArgs) -> anyhow::Result<Board> {
    let variant: Variant = args.variant.parse()?;
    Ok(Board::new(args.rows, args.cols, variant)?)
}

pub fn chec(args: &ChecArgs) -> anyhow::Result<solved_games::tic_tac_chec::TicTacChec> {
    let rule: solved_games::tic_tac_chec::PawnRule = args.pawn.parse().map_err(anyhow::Error::msg)?;
    Ok(solved_games::tic_tac_chec::TicTacChec::new(rule))
}

pub fn boxes_player(side: BoxesPlayer) -> dots_and_boxes::Player {
    match side {
        BoxesPlayer::A => dots_and_boxes::Player::A,
        BoxesPlayer::B => dots_and_boxes::Player::B,
    }
}

/// The arguments that name `game` to `solve` (or `bench-run`).
pub fn game_args(game: &Game) -> Vec<String> {
    match game {
        Game::Dodgem(dodgem) => {
            let mut args = vec!["dodgem".to_string(), "--size".into(), dodgem.size().to_string()];
            if dodgem.objective() == Objective::Misere {
                args.push("--misere".into());
            }
            args
        }
        Game::TicTacChec(game) => vec!["tic-tac-chec".into(), "--pawn".into(), game.rule().id().into()],
        Game::DotsAndBoxes(board) => vec![
            "dots-and-boxes".into(),
            "--rows".into(),
            board.rows().to_string(),
            "--cols".into(),
            board.cols().to_string(),
            "--variant".into(),
            board.variant().id().into(),
        ],
    }
}

/// Prints a clap error as one line (help and version as they are).
pub fn report_usage_error(err: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = err.print();
            if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            }
        }
        _ => {
            let rendered = err.render().to_string();
            let line = rendered.lines().next().unwrap_or("invalid arguments");
            eprintln!("solved: {} (see --help)", line.trim_start_matches("error: "));
            ExitCode::from(2)
        }
    }
}

/// 130 for an interrupted solve, as for a shell job killed by Ctrl-C; 2 otherwise.
pub fn exit_code_for(err: &anyhow::Error) -> ExitCode {
    let interrupted = err.chain().any(|cause| {
        cause.is::<Interrupted>()
            || matches!(cause.downcast_ref::<SolveError>(), Some(SolveError::Interrupted))
            || matches!(
                cause.downcast_ref::<ObtainError>(),
                Some(ObtainError::Solve(SolveError::Interrupted) | ObtainError::Interrupted(_))
            )
    });
    ExitCode::from(if interrupted { 130 } else { 2 })
}
