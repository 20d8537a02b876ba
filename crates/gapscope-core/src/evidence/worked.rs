//! The worked case set (placeholder).
