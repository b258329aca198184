// Example firmware with a real bug, for docs/debugging.md (the debugger walk-through, tested by
// tb/firmware/test_debug_walkthrough.cpp): a frame builder whose payload fill runs one byte past
// the payload and corrupts the sequence number that follows it in memory.
#include "fw/fw.h"

struct Frame {
  unsigned char payload[12];
  unsigned seq;  // right after the payload: the byte past its end is seq's high byte
};

constexpr unsigned kFrames = 4;
Frame frames[kFrames];  // global: the debugger finds it by name

namespace {

__attribute__((noinline)) void fill_payload(Frame& f, unsigned char first, unsigned n) {
  for (unsigned i = 0; i <= n; ++i)  // BUG: `<=` writes payload[n], one past the end
    f.payload[i] = static_cast<unsigned char>(first + i);
}

__attribute__((noinline)) void make_frame(Frame& f, unsigned seq) {
  f.seq = seq;
  fill_payload(f, static_cast<unsigned char>(seq * 16), sizeof f.payload);
}

__attribute__((noinline)) void build_frames() {
  for (unsigned i = 0; i < kFrames; ++i) make_frame(frames[i], i + 1);
}

}  // namespace

int main() {
  build_frames();
  unsigned bad = 0;
  for (unsigned i = 0; i < kFrames; ++i) {
    if (frames[i].seq == i + 1) continue;
    printf("frame %u: bad sequence number 0x%08x (expected %u)\n", i, frames[i].seq, i + 1);
    ++bad;
  }
  printf("%u of %u frames bad\n", bad, kFrames);
  return bad ? 1 : 0;
}
