//! Published claims and how ours compare, for every game's `verify`.

/// How our figure compares with a published one.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Verdict {
    /// They agree.
    Agrees,
    /// They disagree, and nothing explains it: a failure of ours until
    /// shown otherwise.
    Disagrees,
    /// They disagree because the published item is demonstrably wrong (a
    /// misprint, an illegal move); the text says what is right instead.
    Erratum(String),
    /// Out of this tool's reach for now (the figure says why).
    NotYetReachable,
}

impl Verdict {
    /// `Agrees` or `Disagrees`.
    pub fn of(agrees: bool) -> Verdict {
        if agrees { Verdict::Agrees } else { Verdict::Disagrees }
    }
}

/// One published claim, checked.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct ClaimCheck {
    /// A short label, as numbered in the game's spec.
    pub id: String,
    /// What is claimed.
    pub claim: String,
    /// Who claimed it.
    pub source: String,
    /// The published figure.
    pub published: String,
    /// Our figure.
    pub ours: String,
    /// How they compare.
    pub verdict: Verdict,
}

impl ClaimCheck {
    pub(crate) fn new(
        id: &str,
        claim: &str,
        source: &str,
        published: impl Into<String>,
        ours: impl Into<String>,
        verdict: Verdict,
    ) -> ClaimCheck {
        ClaimCheck {
            id: id.into(),
            claim: claim.into(),
            source: source.into(),
            published: published.into(),
            ours: ours.into(),
            verdict,
        }
    }
}
