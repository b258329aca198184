// Test firmware of the NIC as a PCI peer (tb/nic/test_pci_device.cpp). g_cfg[0] is the mode:
//   kRoundTrip: [1] bus address where the echo goes (device memory), [2] the device's doorbell
//     bus address, [3] message length. Rings the device ("ready"), sleeps until the device rings
//     the NIC's doorbell (its message is then in g_msg), DMAs g_msg back to the device and rings
//     its doorbell. g_result: [0] the NIC doorbell value, [1..3] the three descriptors' control.
//   kAborts: [1] an address no window claims, [2] a NIC register the bus may not write (bus
//     address). g_result: [0..2] the controls of a read and a write at [1] and a write at [2],
//     [3] HDMA error count.
#include "test_fw.h"

extern "C" {
alignas(16) uint8_t g_msg[4096];
}

namespace {

enum Mode : uint32_t { kRoundTrip = 1, kAborts = 2 };
constexpr uint32_t kRing = 8;
alignas(16) nic::HdmaDesc ring[kRing];
uint32_t head = 0;
uint32_t bell_ready = 1, bell_echo = 2;

// Starts what was queued and sleeps until the engine has completed all of it.
void hdma_run() {
  nic::irq_mask(nic::kIrqHdmaDone);
  nic::hdma_set_head(head);
  while (nic::hdma_tail() != head) nic::irq_ack(nic::wait());
}

void round_trip() {
  const uint32_t echo = g_cfg[1], device_bell = g_cfg[2], len = g_cfg[3];
  nic::hdma_setup(ring, kRing);
  nic::hdma_queue(ring, kRing, head, &bell_ready, device_bell, 4, 0);
  hdma_run();
  nic::irq_mask(nic::kIrqDoorbell);
  nic::irq_ack(nic::wait());  // the device's message is in g_msg
  // The measured part: from the doorbell to the echo's HDMA_HEAD write.
  nic::hdma_queue(ring, kRing, head, g_msg, echo, len, 0);
  nic::hdma_queue(ring, kRing, head, &bell_echo, device_bell, 4, 0);
  hdma_run();
  g_result[0] = nic::doorbell();
  for (uint32_t i = 0; i < 3; ++i) g_result[1 + i] = ring[i].control;
}

void aborts() {
  nic::hdma_setup(ring, kRing);
  nic::hdma_queue(ring, kRing, head, g_msg, g_cfg[1], 64, nic::kHdmaToSram);
  nic::hdma_queue(ring, kRing, head, g_msg, g_cfg[1], 64, 0);
  nic::hdma_queue(ring, kRing, head, &bell_echo, g_cfg[2], 4, 0);
  hdma_run();
  for (uint32_t i = 0; i < 3; ++i) g_result[i] = ring[i].control;
  g_result[3] = nic::hdma_errors();
}

}  // namespace

int main() {
  switch (g_cfg[0]) {
    case kRoundTrip: round_trip(); break;
    case kAborts: aborts(); break;
    default: break;
  }
  return 0;
}
