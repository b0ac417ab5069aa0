//! The `solved` binary, run as a user would.

mod dodgem;
mod dots_and_boxes;
mod errors;
mod hardening;
mod machine;
mod repository;
mod snakes;
mod tic_tac_chec;
mod toy;
mod util;
