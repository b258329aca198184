// The NIC's memory map, shared by the simulator (hw/nic), the firmware linker (platform/fw)
// and the firmware itself (firmware/runtime includes this header). One place, one truth.
//
//   0x0000_0000  SRAM (size per nic.sram.size, at most 16 MiB; code must stay below 32 MiB
//                because branch targets are absolute 25-bit addresses)
//                0x0000_0000..0x0000_00FF is left unused by the linker, so a call through a
//                null function pointer is a "fetch outside code" fault
//   0x0100_0000  system registers: console, exit, time (this issue)
//   0x0200_0000  NIC register block (DMA engines, RTC, timers, wait-for-event; next issue)
//
// MMIO stays out of 0xFFF0_0000..0xFFFF_FFFF on purpose: clang emits SLS (21-bit absolute)
// loads for constant addresses there, whose sign is ambiguous (ISA notes 3.7).
#pragma once
#include <stdint.h>

namespace sanvp::nic::map {

inline constexpr uint32_t kSramBase = 0x00000000u;
inline constexpr uint32_t kSramDefaultSize = 2u << 20;
inline constexpr uint32_t kSramMaxSize = 16u << 20;
inline constexpr uint32_t kImageBase = 0x00000100u;  // where the linker starts .text

inline constexpr uint32_t kSysBase = 0x01000000u;
inline constexpr uint32_t kSysSize = 0x00001000u;
// System register offsets (32-bit registers, big-endian like all memory).
inline constexpr uint32_t kConsoleTx = 0x000;      // W: low byte is written to the console
inline constexpr uint32_t kConsoleStatus = 0x004;  // R: bit 0 = transmitter ready (always 1)
inline constexpr uint32_t kExit = 0x008;           // W: ends the simulation with this exit code
inline constexpr uint32_t kTimeLo = 0x010;         // R: simulated time in ns, low word
inline constexpr uint32_t kTimeHi = 0x014;         // R: high word (latched when kTimeLo is read)
inline constexpr uint32_t kScratch = 0x020;        // R/W: a plain register for MMIO tests

inline constexpr uint32_t kNicRegBase = 0x02000000u;
inline constexpr uint32_t kNicRegSize = 0x00010000u;

}  // namespace sanvp::nic::map
