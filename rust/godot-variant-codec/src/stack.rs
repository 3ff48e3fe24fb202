//! Room on the stack for walks that recurse once per nesting level.
//!
//! A nested value is walked one call deep per level, up to the engine's 1024 levels, on
//! the calling thread, whose stack may be too small for that (a debug build, a macOS
//! thread of 512 KiB, a Windows one of 1 MiB, a worker thread). Each level runs through
//! [`StackRoom::run`], on a new stack segment when the current one has little left: any
//! depth is then safe on any thread, never a stack overflow.

/// How much stack a recursive walk keeps free below each level, and how much it adds
/// when a level finds less than that.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StackRoom {
    /// Stack kept free below each level: what one level uses, and what it calls, must fit.
    pub red_zone: usize,
    /// Size of a stack segment added when a level finds less than `red_zone` left.
    pub segment: usize,
}

impl StackRoom {
    /// The codec's own walks (decoding, encoding, the serde mapping, key hashing,
    /// migration): 64 KiB kept free, 1 MiB segments.
    pub const CODEC: StackRoom = StackRoom::new(64 * 1024, 1024 * 1024);

    /// Room of `red_zone` bytes kept free, `segment` bytes added when less is left. A
    /// walk that calls out to code with deep stacks of its own (an engine, scripts) keeps
    /// more free than [`CODEC`](Self::CODEC) does.
    pub const fn new(red_zone: usize, segment: usize) -> StackRoom {
        StackRoom { red_zone, segment }
    }

    /// Runs one level of a walk: in place while `red_zone` bytes of stack are left, else
    /// on a fresh segment of `segment` bytes.
    #[inline]
    pub fn run<R>(self, walk: impl FnOnce() -> R) -> R {
        stacker::maybe_grow(self.red_zone, self.segment, walk)
    }
}

/// The lowest stack address at which a level of a nested walk still has
/// [`StackRoom::CODEC`]'s red zone below it, on the stack segment the walk runs on:
/// [`StackRoom::run`]'s rule with the segment's limit read once (a thread-local lookup)
/// instead of at every level.
/// [`StackFloor::UNKNOWN`] until read; a walker holds one and runs each level through
/// [`StackFloor::run`].
#[derive(Clone, Copy)]
pub(crate) struct StackFloor(usize);

impl StackFloor {
    /// Not read yet: the next level reads it.
    pub(crate) const UNKNOWN: StackFloor = StackFloor(usize::MAX);

    /// Runs one level of a walk: in place while the stack is above `floor`, else as
    /// [`StackRoom::run`] does (on a fresh segment when little is left; one read of the limit),
    /// with `floor` read for the segment the level runs on and put back after it.
    #[inline(always)]
    pub(crate) fn run<S, R>(
        state: &mut S,
        floor: impl Fn(&mut S) -> &mut StackFloor,
        walk: impl FnOnce(&mut S) -> R,
    ) -> R {
        if stack_address() > floor(state).0 {
            walk(state)
        } else {
            Self::run_reading(state, floor, walk)
        }
    }

    #[cold]
    #[inline(never)]
    fn run_reading<S, R>(
        state: &mut S,
        floor: impl Fn(&mut S) -> &mut StackFloor,
        walk: impl FnOnce(&mut S) -> R,
    ) -> R {
        let outer = *floor(state);
        let result = match stacker::remaining_stack() {
            Some(left) if left >= StackRoom::CODEC.red_zone => {
                *floor(state) = Self::from_remaining(Some(left));
                walk(state)
            }
            // Where the limit is unknown, every level reads it again and gets a segment of
            // its own, as `StackRoom::run` gives.
            _ => stacker::grow(StackRoom::CODEC.segment, || {
                *floor(state) = Self::from_remaining(stacker::remaining_stack());
                walk(state)
            }),
        };
        *floor(state) = outer;
        result
    }

    /// The floor of the stack segment this runs on, `left` bytes above its limit.
    #[inline(always)]
    fn from_remaining(left: Option<usize>) -> StackFloor {
        match left {
            Some(left) => StackFloor(
                stack_address()
                    .saturating_sub(left)
                    .saturating_add(StackRoom::CODEC.red_zone),
            ),
            None => StackFloor::UNKNOWN,
        }
    }
}

/// An address in the caller's stack frame.
#[inline(always)]
fn stack_address() -> usize {
    let marker = 0u8;
    std::hint::black_box(std::ptr::from_ref(&marker)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Uses about 4 KiB of stack per level.
    fn depth_of(room: StackRoom, levels: usize) -> usize {
        let frame = std::hint::black_box([0u8; 4096]);
        match levels {
            0 => frame.len() - 4096,
            _ => room.run(|| depth_of(room, levels - 1)) + 1,
        }
    }

    #[test]
    fn a_walk_outgrows_a_small_thread_stack() {
        // 40 MiB of frames on a 256 KiB thread.
        let deep = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| depth_of(StackRoom::CODEC, 10_000))
            .unwrap();
        assert_eq!(deep.join().unwrap(), 10_000);
    }
}
