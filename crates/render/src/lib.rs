//! jieqi-render: under construction.
