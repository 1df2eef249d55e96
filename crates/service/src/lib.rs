//! jieqi-service: under construction.
