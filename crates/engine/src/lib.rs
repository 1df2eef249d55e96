//! jieqi-engine: under construction.
