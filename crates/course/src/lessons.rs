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
                prelude: &[],
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
                prelude: &[],
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
            prelude: &[],
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
                prelude: &[],
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
                prelude: &[],
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
            prelude: &[],
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
            prelude: &[],
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
                prelude: &[],
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
                prelude: &[],
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
        // Black has checked with every move since the first position; the learner's move
        // brings it back a third time, and the perpetual checker loses.
        steps: &[Step {
            fen: "5k2x/9/9/9/9/9/9/4K4/r8/9 b - - 0 1 h",
            prelude: &["a1a2", "e2e1", "a2a1", "e1e2", "a1a2", "e2e1", "a2a1"],
            learner: Side::Red,
            turns: &[Turn {
                task: "course-repetition-check-task",
                solution: Solution::Moves(&["e1e2"]),
                reply: None,
                explanation: "course-repetition-check-done",
                hint: "course-repetition-check-hint",
            }],
        }],
    },
    Lesson {
        id: "banqi-flip",
        variant: Variant::Banqi,
        title: "course-banqi-flip-title",
        steps: &[Step {
            fen: "????????/????????/????????/???????? - 0 1",
            prelude: &[],
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
            prelude: &[],
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
            prelude: &[],
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
