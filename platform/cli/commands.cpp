#include "platform/cli/commands.hpp"

namespace sanvp {
std::vector<CommandEntry>& command_registry() {
  static std::vector<CommandEntry> r;
  return r;
}
}  // namespace sanvp
