//! The parts of the page, one module each: its state struct, the jobs it
//! sends to the worker pool and its components.

pub(crate) mod evidence;
pub(crate) mod gaps;
pub(crate) mod runtime;
pub(crate) mod teaching;
pub(crate) mod trajectories;
