//! Built-in detectors the rule language calls: analyses of a whole game
//! that a rule cannot express move by move.

pub mod hidden_book;
