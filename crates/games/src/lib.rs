//! The games `solved` knows, each implementing the engine's traits.
//!
//! # Brief overview
//!
//! Each game lives in its own module: its rules (`Position`, `Move`, move
//! generation), its notation, its dense index, the glue to an engine solver,
//! and its published claims with the code that checks them. Variants are
//! parameters of one implementation. Each game also describes itself to
//! [`registry`], the one list of games that the command line and the web
//! server go through: its parameters as [`params::Field`]s, read by one
//! parser whichever front end they came from, and the operations it
//! supports. [`tables`] has or builds a game's table.
//!
//! # Examples
//!
//! ```
//! use solved_games::dodgem::{Dodgem, Objective};
//! let game = Dodgem::new(3, Objective::Normal)?;
//! assert_eq!(game.start().to_string(), "B../B../.RR B");
//! // One index per pair of mirror-image positions, split into units:
//! assert_eq!(game.unit_index().count(), 2_846 / 2);
//! # Ok::<_, solved_games::dodgem::SizeError>(())
//! ```

#![warn(missing_docs)]
#![warn(missing_debug_implementations)]
#![forbid(unsafe_code)]

pub mod claims;
pub mod contest;
pub mod dodgem;
pub mod dots_and_boxes;
pub mod front;
pub mod info;
pub mod levels;
pub mod manifest;
pub mod params;
pub mod puzzles;
pub mod registry;
pub mod snakes;
pub mod tables;
pub mod text;
pub mod tic_tac_chec;
