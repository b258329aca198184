#include "platform/fw/builtin_firmware.hpp"

namespace sanvp::fw {

const std::vector<BuiltinFirmware>& builtin_firmware_table() {
  static const std::vector<BuiltinFirmware> table = {
#include "builtin_firmware_table.inc"  // generated: one {id, target, image} per BUILTIN firmware
  };
  return table;
}

const BuiltinFirmware* find_builtin_firmware(const std::string& id) {
  for (const auto& f : builtin_firmware_table())
    if (f.id == id) return &f;
  return nullptr;
}

std::string builtin_firmware_image(const std::string& id) {
  const BuiltinFirmware* f = find_builtin_firmware(id);
  return f ? f->image : std::string();
}

std::string builtin_firmware_names() {
  std::string s;
  for (const auto& f : builtin_firmware_table()) s += (s.empty() ? "builtin:" : ", builtin:") + f.id;
  return s;
}

}  // namespace sanvp::fw
