//! Room on the stack for deep values.
//!
//! The conversions recurse once per nesting level, up to the engine's 1024, on the calling
//! thread, whose stack may be too small for that: a debug build, a macOS thread (512 KiB),
//! a Windows one (1 MiB). Each level runs here, on a new stack segment when the current one
//! has little left. (The codec grows its own stack the same way.)

use godot_variant_codec::StackRoom;

/// 256 KiB kept free for what a step calls besides the recursion (Godot, and scripts run by
/// property getters and setters), 4 MiB segments added when less is left.
const ROOM: StackRoom = StackRoom::new(256 * 1024, 4 * 1024 * 1024);

/// Runs one step of a recursive conversion, first adding a segment if the stack is low.
pub fn step<R>(work: impl FnOnce() -> R) -> R {
    ROOM.run(work)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Uses about 4 KiB of stack per level.
    fn depth_of(levels: usize) -> usize {
        let frame = std::hint::black_box([0u8; 4096]);
        match levels {
            0 => frame.len() - 4096,
            _ => step(|| depth_of(levels - 1)) + 1,
        }
    }

    #[test]
    fn recursion_outgrows_a_small_thread_stack() {
        // 40 MiB of frames on a 256 KiB thread.
        let deep = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| depth_of(10_000))
            .unwrap();
        assert_eq!(deep.join().unwrap(), 10_000);
    }
}
