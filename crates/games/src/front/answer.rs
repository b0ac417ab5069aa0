//! What a game answers: one serde type per answer, which the command line
//! prints as JSON (`--json`) or as text, and the web app sends as JSON.

use serde::Serialize;
use solved_engine::{Tally, Value};

use crate::claims::{ClaimCheck, Verdict};
use crate::levels::{Grade, Worth};
use crate::text::columns;

/// An answer: its JSON shape is its serde shape, the same on the command
/// line and on the web.
pub trait Answer: erased_serde::Serialize + Send + Sync {
    /// The answer for a person at a terminal.
    fn text(&self) -> String;

    /// Whether what it checked holds: `false` makes the command line exit
    /// with 1 (a published claim that disagrees, a value its children
    /// contradict).
    fn holds(&self) -> bool {
        true
    }

    /// Whether there is nothing to print: what a worker rank of a solve
    /// spread over MPI answers, the manager reporting for all.
    fn says_nothing(&self) -> bool {
        false
    }
}

erased_serde::serialize_trait_object!(Answer);

/// An answer kept by a host for the next request that asks the same (see
/// [`Host::remember`](super::Host::remember)).
#[derive(Clone)]
pub struct Kept(pub std::sync::Arc<dyn Answer>);

impl std::fmt::Debug for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kept").finish_non_exhaustive()
    }
}

impl Serialize for Kept {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl Answer for Kept {
    fn text(&self) -> String {
        self.0.text()
    }

    fn holds(&self) -> bool {
        self.0.holds()
    }

    fn says_nothing(&self) -> bool {
        self.0.says_nothing()
    }
}

impl Answer for () {
    fn text(&self) -> String {
        String::new()
    }

    fn says_nothing(&self) -> bool {
        true
    }
}

/// Positions by their result for the side to move.
#[derive(Copy, Clone, Debug, Serialize)]
pub struct TallyJson {
    /// All of them.
    pub positions: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Lost for the side to move.
    pub losses: u64,
    /// Drawn.
    pub draws: u64,
}

impl From<Tally> for TallyJson {
    fn from(tally: Tally) -> TallyJson {
        TallyJson { positions: tally.positions(), wins: tally.wins, losses: tally.losses, draws: tally.draws }
    }
}

/// One published claim and ours beside it.
#[derive(Debug, Serialize)]
struct ClaimJson {
    id: String,
    claim: String,
    source: String,
    published: String,
    ours: String,
    agrees: bool,
    /// Set when the published item is shown to be wrong.
    erratum: Option<String>,
}

/// Every published claim about a game, checked (`verify`), with what else
/// the game replays on the way (`record`: none, `()`, for most games).
#[derive(Debug, Serialize)]
pub struct Claims<R: Serialize = ()> {
    game: &'static str,
    claims: Vec<ClaimJson>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    record: Vec<R>,
    all_agree: bool,
    /// The record as text, printed before the claims.
    #[serde(skip)]
    preamble: String,
}

impl Claims {
    /// The checked claims about game `game` (its id).
    pub fn new(game: &'static str, checks: &[ClaimCheck]) -> Claims {
        Claims::with_record(game, checks, Vec::new(), String::new())
    }
}

impl<R: Serialize> Claims<R> {
    /// The same, after a record replayed, which `preamble` shows as text.
    pub fn with_record(game: &'static str, checks: &[ClaimCheck], record: Vec<R>, preamble: String) -> Claims<R> {
        let claims: Vec<ClaimJson> = checks
            .iter()
            .map(|c| ClaimJson {
                id: c.id.clone(),
                claim: c.claim.clone(),
                source: c.source.clone(),
                published: c.published.clone(),
                ours: c.ours.clone(),
                agrees: c.verdict == Verdict::Agrees,
                erratum: match &c.verdict {
                    Verdict::Erratum(note) => Some(note.clone()),
                    _ => None,
                },
            })
            .collect();
        let all_agree = !checks.iter().any(|c| c.verdict == Verdict::Disagrees);
        let mut text = preamble;
        text.push_str(&claims_text(checks));
        Claims { game, claims, record, all_agree, preamble: text }
    }
}

/// Errata (published items shown to be wrong) and claims out of reach are
/// reported, not failures.
impl<R: Serialize + Send + Sync> Answer for Claims<R> {
    fn text(&self) -> String {
        let verdict = if self.all_agree { "All claims agree.\n" } else { "SOME CLAIMS DISAGREE.\n" };
        format!("{}{verdict}", self.preamble)
    }

    fn holds(&self) -> bool {
        self.all_agree
    }
}

fn claims_text(claims: &[ClaimCheck]) -> String {
    let mut rows = vec![["#", "claim", "source", "published", "ours", "agrees"].map(String::from).to_vec()];
    for c in claims {
        let agrees = match c.verdict {
            Verdict::Agrees => "yes",
            Verdict::Disagrees => "NO",
            Verdict::Erratum(_) => "no: erratum",
            Verdict::NotYetReachable => "not yet",
        };
        rows.push(vec![
            c.id.clone(),
            c.claim.clone(),
            c.source.clone(),
            c.published.clone(),
            c.ours.clone(),
            agrees.into(),
        ]);
    }
    let mut text = columns(&rows);
    for c in claims {
        if let Verdict::Erratum(note) = &c.verdict {
            text.push_str(&format!("erratum in {} ({}): {note}\n", c.claim, c.source));
        }
    }
    text
}

/// A move with the value it has for the mover and the position it leads
/// to, the move's squares given apart so that no page parses notation.
#[derive(Debug, Serialize)]
pub struct MoveJson {
    #[serde(rename = "move")]
    m: String,
    /// Absent before the game's table is built.
    #[serde(flatten)]
    value: Option<Value>,
    position: String,
    /// Where the piece moves from, or `null` for a piece placed from hand.
    from: Option<String>,
    /// Where it goes, or `off` for a car leaving the board.
    to: String,
    /// The piece placed, for a placement.
    #[serde(skip_serializing_if = "Option::is_none")]
    role: Option<char>,
    /// How good a move it is, as a player's move is marked (absent before
    /// the table is built).
    #[serde(skip_serializing_if = "Option::is_none")]
    grade: Option<Grade>,
}

impl MoveJson {
    /// Move `m`, worth `value` to its mover, to `position`, from square
    /// `from` (or from hand, placing `role`) to square `to`.
    pub fn new(
        m: impl ToString,
        value: Option<Value>,
        position: impl ToString,
        from: Option<String>,
        to: String,
        role: Option<char>,
    ) -> MoveJson {
        MoveJson { m: m.to_string(), value, position: position.to_string(), from, to, role, grade: None }
    }
}

/// `moves`, every move of one position, each with its grade (if every
/// value is known).
pub fn graded(mut moves: Vec<MoveJson>) -> Vec<MoveJson> {
    let worths: Option<Vec<Worth>> = moves.iter().map(|m| m.value.map(Worth::of_value)).collect();
    if let Some(worths) = worths {
        for (m, grade) in moves.iter_mut().zip(Grade::all_of(&worths)) {
            m.grade = Some(grade);
        }
    }
    moves
}

/// `moves` as a table for the terminal: each move, its value (blank until
/// known) and the position after it.
pub fn moves_table(moves: &[MoveJson]) -> String {
    let mut rows = vec![["move", "value", "position after"].map(String::from).to_vec()];
    rows.extend(moves.iter().map(|m| {
        let value = m.value.map_or(String::new(), |v| v.to_string());
        vec![m.m.clone(), value, m.position.clone()]
    }));
    columns(&rows)
}
