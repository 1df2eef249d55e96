//! The lessons, in the order a newcomer takes them. Positions are written as full FENs
//! (notation.md): in Jieqi the seventh field is the deal, the true type of each covered piece
//! in reading order (rank 9 to 0, file a to i), so what a reveal shows is fixed here and the
//! explanations may say it. Keys follow `course-<lesson>-<step>-<what>`; the texts are in
//! `assets/i18n/course/<lang>.ftl`.

use jieqi_rules::{Side, Variant};

use crate::{Lesson, Solution, Step, Turn};

/// The course, in order.
pub static COURSE: &[Lesson] = &[
    Lesson {
        id: "covered",
        variant: Variant::Jieqi,
        title: "course-covered-title",
        steps: &[
            // b0 is a horse's point: the covered piece jumps like a horse, and turns out to
            // be a chariot.
            Step {
                fen: "x3k4/9/9/2x6/9/9/4X4/7X1/9/1X2K4 w - - 0 1 prPHR",
                prelude: "",
                learner: Side::Red,
                turns: &[Turn {
                    task: "course-covered-horse-task",
                    solution: Solution::Moves(&["b0c2"]),
                    reply: None,
                    explanation: "course-covered-horse-done",
                    hint: "course-covered-horse-hint",
                }],
            },
            // h2 is a cannon's point: the covered piece captures like a cannon, over one
            // screen, and turns out to be an advisor.
            Step {
                fen: "x3k2r1/9/9/7p1/9/9/4X4/7X1/9/4K4 w - - 0 1 pPA",
                prelude: "",
                learner: Side::Red,
                turns: &[Turn {
                    task: "course-covered-cannon-task",
                    solution: Solution::Moves(&["h2h9"]),
                    reply: None,
                    explanation: "course-covered-cannon-done",
                    hint: "course-covered-cannon-hint",
                }],
            },
        ],
    },
    Lesson {
        id: "reveal",
        variant: Variant::Jieqi,
        title: "course-reveal-title",
        steps: &[Step {
            // The covered soldier on c3 is really a chariot: reveal it, then use it.
            fen: "2h1k4/9/9/6x2/9/9/2X1X1X2/9/9/4K4 w - - 0 1 pRPH",
            prelude: "",
            learner: Side::Red,
            turns: &[
                Turn {
                    task: "course-reveal-push-task",
                    solution: Solution::Moves(&["c3c4"]),
                    reply: Some("e9e8"),
                    explanation: "course-reveal-push-done",
                    hint: "course-reveal-push-hint",
                },
                Turn {
                    task: "course-reveal-use-task",
                    solution: Solution::Moves(&["c4c9"]),
                    reply: None,
                    explanation: "course-reveal-use-done",
                    hint: "course-reveal-use-hint",
                },
            ],
        }],
    },
    Lesson {
        id: "free",
        variant: Variant::Jieqi,
        title: "course-free-title",
        steps: &[
            // A revealed elephant crosses the river (the eye on f5 is free).
            Step {
                fen: "x3k4/9/9/6h2/9/4E4/4X4/9/9/4K4 w - - 0 1 rP",
                prelude: "",
                learner: Side::Red,
                turns: &[Turn {
                    task: "course-free-elephant-task",
                    solution: Solution::Moves(&["e4g6"]),
                    reply: None,
                    explanation: "course-free-elephant-done",
                    hint: "course-free-elephant-hint",
                }],
            },
            // A revealed advisor steps out of the palace.
            Step {
                fen: "x3k4/9/9/9/9/9/2p1X4/3A5/9/4K4 w - - 0 1 rP",
                prelude: "",
                learner: Side::Red,
                turns: &[Turn {
                    task: "course-free-advisor-task",
                    solution: Solution::Moves(&["d2c3"]),
                    reply: None,
                    explanation: "course-free-advisor-done",
                    hint: "course-free-advisor-hint",
                }],
            },
        ],
    },
    Lesson {
        id: "flying",
        variant: Variant::Jieqi,
        title: "course-flying-title",
        // The chariot on e5 checks; d1 would face the general on d9, so f1 is the only way.
        steps: &[Step {
            fen: "x2k5/9/9/9/4r4/9/X7X/9/4K4/9 w - - 0 1 cPP",
            prelude: "",
            learner: Side::Red,
            turns: &[Turn {
                task: "course-flying-escape-task",
                solution: Solution::Moves(&["e1f1"]),
                reply: None,
                explanation: "course-flying-escape-done",
                hint: "course-flying-escape-hint",
            }],
        }],
    },
    Lesson {
        id: "capture",
        variant: Variant::Jieqi,
        title: "course-capture-title",
        // The covered piece on b9 is really a cannon: only the capturer learns it.
        steps: &[Step {
            fen: "1x2k2x1/9/9/9/9/1R7/4X4/9/9/4K4 w - - 0 1 crP",
            prelude: "",
            learner: Side::Red,
            turns: &[Turn {
                task: "course-capture-covered-task",
                solution: Solution::Moves(&["b4b9"]),
                reply: None,
                explanation: "course-capture-covered-done",
                hint: "course-capture-covered-hint",
            }],
        }],
    },
    Lesson {
        id: "mate",
        variant: Variant::Jieqi,
        title: "course-mate-title",
        steps: &[
            // A check the general walks out of.
            Step {
                fen: "4k2x1/9/9/9/9/9/9/9/1R7/5K3 w - - 0 1 a",
                prelude: "",
                learner: Side::Red,
                turns: &[Turn {
                    task: "course-mate-check-task",
                    solution: Solution::Moves(&["b1b9", "b1e1"]),
                    reply: None,
                    explanation: "course-mate-check-done",
                    hint: "course-mate-check-hint",
                }],
            },
            // The chariot on a8 shuts rank 8; the other mates on rank 9.
            Step {
                fen: "4k2x1/R8/9/9/9/9/9/9/1R7/5K3 w - - 0 1 a",
                prelude: "",
                learner: Side::Red,
                turns: &[Turn {
                    task: "course-mate-mate-task",
                    solution: Solution::Moves(&["b1b9"]),
                    reply: None,
                    explanation: "course-mate-mate-done",
                    hint: "course-mate-mate-hint",
                }],
            },
        ],
    },
    Lesson {
        id: "repetition",
        variant: Variant::Jieqi,
        title: "course-repetition-title",
        steps: &[
            // Black has checked with every move since the first position; the learner's move
            // brings it back a third time, and the perpetual checker loses.
            Step {
                fen: "5k2x/9/9/9/9/9/9/4K4/r8/9 b - - 0 1 h",
                prelude: "a1a2 e2e1 a2a1 e1e2 a1a2 e2e1 a2a1",
                learner: Side::Red,
                turns: &[Turn {
                    task: "course-repetition-check-task",
                    solution: Solution::Moves(&["e1e2"]),
                    reply: None,
                    explanation: "course-repetition-check-done",
                    hint: "course-repetition-check-hint",
                }],
            },
            // 119 plies without a capture: the chariots walk two cycles (12 and 10 points
            // long, so no position comes back a third time). The 120th ply draws unless it
            // captures.
            Step {
                fen: "5k3/9/9/8x/6r2/1p7/8X/9/9/R2K5 b - - 0 1 pP",
                prelude: NO_PROGRESS_PRELUDE,
                learner: Side::Red,
                turns: &[Turn {
                    task: "course-repetition-quiet-task",
                    solution: Solution::Moves(&["b0b4"]),
                    reply: None,
                    explanation: "course-repetition-quiet-done",
                    hint: "course-repetition-quiet-hint",
                }],
            },
        ],
    },
    Lesson {
        id: "banqi-flip",
        variant: Variant::Banqi,
        title: "course-banqi-flip-title",
        steps: &[Step {
            fen: "????????/????????/????????/???????? - 0 1",
            prelude: "",
            learner: Side::Red,
            turns: &[Turn {
                task: "course-banqi-flip-task",
                solution: Solution::AnyFlip,
                reply: None,
                explanation: "course-banqi-flip-done",
                hint: "course-banqi-flip-hint",
            }],
        }],
    },
    Lesson {
        id: "banqi-ranks",
        variant: Variant::Banqi,
        title: "course-banqi-ranks-title",
        // The horse outranks the cannon but not the chariot; the soldier takes the general.
        steps: &[Step {
            fen: "????????/??r??k??/??Hc?P??/???????? w 0 10",
            prelude: "",
            learner: Side::Red,
            turns: &[
                Turn {
                    task: "course-banqi-ranks-horse-task",
                    solution: Solution::Moves(&["c2d2"]),
                    reply: Some("a4"),
                    explanation: "course-banqi-ranks-horse-done",
                    hint: "course-banqi-ranks-horse-hint",
                },
                Turn {
                    task: "course-banqi-ranks-soldier-task",
                    solution: Solution::Moves(&["f2f3"]),
                    reply: None,
                    explanation: "course-banqi-ranks-soldier-done",
                    hint: "course-banqi-ranks-soldier-hint",
                },
            ],
        }],
    },
    Lesson {
        id: "banqi-cannon",
        variant: Variant::Banqi,
        title: "course-banqi-cannon-title",
        // The cannon on a1 jumps the face-down piece on a2 to take the chariot on a4; the
        // horse beside it is out of its reach.
        steps: &[Step {
            fen: "r???????/1???????/????????/Ch??????[P1] w 0 10",
            prelude: "",
            learner: Side::Red,
            turns: &[Turn {
                task: "course-banqi-cannon-task",
                solution: Solution::Moves(&["a1a4"]),
                reply: None,
                explanation: "course-banqi-cannon-done",
                hint: "course-banqi-cannon-hint",
            }],
        }],
    },
];

/// Black's chariot round g5-g9-h9-h5, Red's round a0-a3-c3-c0-b0, one point a move, Black
/// first: 119 plies, and no position stands three times (the cycles' lengths, 10 and 12,
/// only meet again after 60 moves each).
const NO_PROGRESS_PRELUDE: &str = "g5g6 a0a1 g6g7 a1a2 g7g8 a2a3 g8g9 a3b3 g9h9 b3c3 h9h8 c3c2 h8h7 c2b2 h7h6 b2b1 h6h5 b1c1 h5g5 c1c0 g5g6 c0b0 g6g7 b0a0 g7g8 a0a1 g8g9 a1a2 g9h9 a2a3 h9h8 a3b3 h8h7 b3c3 h7h6 c3c2 h6h5 c2b2 h5g5 b2b1 g5g6 b1c1 g6g7 c1c0 g7g8 c0b0 g8g9 b0a0 g9h9 a0a1 h9h8 a1a2 h8h7 a2a3 h7h6 a3b3 h6h5 b3c3 h5g5 c3c2 g5g6 c2b2 g6g7 b2b1 g7g8 b1c1 g8g9 c1c0 g9h9 c0b0 h9h8 b0a0 h8h7 a0a1 h7h6 a1a2 h6h5 a2a3 h5g5 a3b3 g5g6 b3c3 g6g7 c3c2 g7g8 c2b2 g8g9 b2b1 g9h9 b1c1 h9h8 c1c0 h8h7 c0b0 h7h6 b0a0 h6h5 a0a1 h5g5 a1a2 g5g6 a2a3 g6g7 a3b3 g7g8 b3c3 g8g9 c3c2 g9h9 c2b2 h9h8 b2b1 h8h7 b1c1 h7h6 c1c0 h6h5 c0b0 h5g5";
