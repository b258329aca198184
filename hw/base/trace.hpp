// Trace registry and VCD writer. Models record value changes with the simulated time at which
// they happen; the time may lie in the future (a flit's arrival is known when it leaves), so
// changes are held in a time-ordered queue and written once simulated time has passed them.
// Per-module enables (glob patterns over hierarchical names) and a time window keep VCDs small.
#pragma once
#include <cstdint>
#include <cstdio>
#include <queue>
#include <string>
#include <vector>

#include "io.hpp"
#include "time.hpp"

namespace sanvp {

class Tracer {
 public:
  using Handle = int;  // -1 = not traced
  static constexpr Handle kOff = -1;

  // Patterns: comma-separated globs ('*' and '?') matched against the signal's module path;
  // empty = everything. Window [from, to] in ps (to = kNever for open-ended).
  void configure(const std::string& patterns, Time from, Time to);
  // Opens the VCD (written under a temporary name, renamed at close). Throws UserError for a
  // path that cannot be created; a write that fails later throws IoError (exit 3).
  bool open(const std::string& path);
  bool active() const { return file_ != nullptr; }

  // Declares a signal; returns kOff when tracing is off or the module is not enabled. Every
  // value written must fit `width` bits (1..64), else the writer throws SimError.
  Handle declare(const std::string& module_path, const std::string& name, int width,
                 std::uint64_t initial = 0);
  bool enabled(const std::string& module_path) const;
  // After every signal is declared, before the run: a --trace pattern that matched none would
  // leave its part of the VCD empty without a word, so it is a UserError naming the pattern.
  void check_patterns() const;
  // Before close(end): a warning (else "") when the window starts at or after `end`, so the VCD
  // holds no values (the end of a run is known only once it has ended).
  std::string empty_window_warning(Time end) const;

  // Records `value` on `h` at time `t` (t >= the current simulated time).
  void change(Handle h, Time t, std::uint64_t value) {
    if (h < 0 || t > to_) return;
    queue_.push(Change{t, seq_++, h, value});
    if (queue_.size() > 4096) flush(now_());
  }
  // Writes every change before `now` (changes at `now` may still come). Called by the kernel
  // glue; also at close, which writes everything. The first
  // flush writes the header and warns about every pattern that matched no signal.
  void flush(Time now);
  void close(Time end);  // completes the file; IoError if any write failed

  void set_now_fn(Time (*fn)()) { now_fn_ = fn; }
  static Tracer& global();

 private:
  struct Change {
    Time t; std::uint64_t seq; Handle h; std::uint64_t v;
    bool operator>(const Change& o) const { return t != o.t ? t > o.t : seq > o.seq; }
  };
  struct Signal { std::string module; std::string name; int width; std::uint64_t value; std::string id; };
  Time now_() const { return now_fn_ ? now_fn_() : 0; }
  void write_header();
  void flush_changes(Time now);
  bool pattern_matches(const std::string& p, const std::string& module_path) const;
  void write_value(const Signal& s);
  void emit_instant(Time t, std::vector<Change>& batch);

  std::vector<std::string> patterns_;
  std::vector<bool> pattern_used_;  // per pattern: matched at least one declared signal
  OutputFile out_;
  std::string path_;
  Time from_ = 0, to_ = kNever;
  std::FILE* file_ = nullptr;
  std::vector<Signal> signals_;
  std::priority_queue<Change, std::vector<Change>, std::greater<Change>> queue_;
  std::uint64_t seq_ = 0;
  bool header_done_ = false;
  bool in_window_ = false;
  Time last_time_written_ = kNever;
  Time written_up_to_ = kNever;  // the last instant emitted (in the window or before it)
  Time (*now_fn_)() = nullptr;
};

// One traced signal of a model: declare it once (after the tracer is configured), then call
// change() wherever the value changes. When tracing is off, or the module is not enabled, every
// call is a no-op, so models carry no guards.
class TraceSignal {
 public:
  void declare(const std::string& module_path, const std::string& name, int width, std::uint64_t initial = 0) {
    h_ = Tracer::global().declare(module_path, name, width, initial);
  }
  void change(Time t, std::uint64_t value) const {
    if (h_ != Tracer::kOff) Tracer::global().change(h_, t, value);
  }
  bool on() const { return h_ != Tracer::kOff; }  // for work done only to compute a traced value

 private:
  Tracer::Handle h_ = Tracer::kOff;
};

bool glob_match(const std::string& pattern, const std::string& text);

// The width of a signal whose values lie in [0, max_value]: declare counts bounded by a parameter
// (a buffer's bl, a switch's ports) with this, never a fixed width the parameter may outgrow.
inline int bits_for(std::uint64_t max_value) {
  int bits = 1;
  while (bits < 64 && (max_value >> bits) != 0) ++bits;
  return bits;
}

}  // namespace sanvp
