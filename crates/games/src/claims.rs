//! Published claims and how ours compare, for every game's `verify`.

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
    /// Whether they agree.
    pub agrees: bool,
}

impl ClaimCheck {
    pub(crate) fn new(
        id: &str,
        claim: &str,
        source: &str,
        published: impl Into<String>,
        ours: impl Into<String>,
        agrees: bool,
    ) -> ClaimCheck {
        ClaimCheck {
            id: id.into(),
            claim: claim.into(),
            source: source.into(),
            published: published.into(),
            ours: ours.into(),
            agrees,
        }
    }
}
