//! [`Blocks`], the [`StateSpace`] of a sliding-block puzzle: its pieces ([`Layout`]), the
//! metric and the goal; invertible (a slide is undone by the slide back), described for the
//! cache, with board text.
//!
//! Its dense index is not here: the plugin lists [`every_position`](crate::enumerate) into the
//! core's sorted index ([`statespace::index::IndexedBy`]), which gives bitset BFS, the distance
//! table and explore, and the goal set (every indexed position that is a goal).

use crate::enumerate::every_position;
use crate::goal::Goal;
use crate::inventory::Layout;
use crate::moves::{Metric, Slide, may_follow, successors};
use crate::pieces::State;
use statespace::board_text::BoardText;
use statespace::cache::fingerprint::Content;
use statespace::error::Result;
use statespace::index::Visit;
use statespace::space::{BoardFormat, Describe, Invertible, StateSpace};

/// A sliding-block puzzle: see the module docs.
#[derive(Clone, Debug)]
pub struct Blocks {
    layout: Layout,
    metric: Metric,
    goal: Goal,
}

impl Blocks {
    /// The puzzle of `layout`'s pieces, moved by `metric`, solved at `goal`.
    pub fn new(layout: Layout, metric: Metric, goal: Goal) -> Blocks {
        Blocks {
            layout,
            metric,
            goal,
        }
    }

    /// Its pieces and board text.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Its metric.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// Its goal.
    pub fn goal(&self) -> Goal {
        self.goal
    }

    /// Calls `visit` with every position of its pieces (see [`every_position`]).
    pub fn every_position(&self, visit: Visit<State>) {
        every_position(&self.layout.pieces, visit)
    }
}

impl StateSpace for Blocks {
    type State = State;
    type Move = Slide;

    #[inline]
    fn successors(&self, state: State, visit: &mut dyn FnMut(Slide, State)) {
        successors(&self.layout.pieces, self.metric, state, visit)
    }

    #[inline]
    fn is_goal(&self, state: State) -> bool {
        self.goal.holds(&self.layout.pieces, state)
    }

    fn may_follow(&self, previous: Slide, next: Slide) -> bool {
        may_follow(self.metric, previous, next)
    }
}

impl Invertible for Blocks {
    fn inverse(&self, m: Slide) -> Slide {
        m.inverse()
    }
}

/// The board, the walls, each class (shape, axis, allowed anchors, count) in label order, the
/// metric and the goal: everything the moves, the goal and the index depend on; never the
/// letters (names the user chose).
impl Describe for Blocks {
    fn describe(&self, content: &mut Content) {
        let pieces = &self.layout.pieces;
        let geometry = &pieces.geometry;
        content
            .str("blocks")
            .u64(geometry.rows.into())
            .u64(geometry.cols.into())
            .u64(pieces.walls);
        content.u64(pieces.classes.len() as u64);
        for class in &pieces.classes {
            content
                .u64(class.shape.rows.into())
                .u64(class.shape.cols.into())
                .u64(class.axis as u64)
                .u64(class.allowed)
                .u64(class.count.into());
        }
        content.str(self.metric.name());
        self.goal.describe(content);
    }
}

impl BoardFormat for Blocks {
    fn parse(&self, text: &BoardText) -> Result<State> {
        text.board_only()?;
        self.layout.parse(text)
    }

    fn format(&self, state: State) -> String {
        self.layout.format(state)
    }
}
