/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtl8168-sim: the C API of the RTL8168 NIC model.
 *
 * This is the only interface between the model (C++, model/) and its hosts:
 * the QEMU shim (hw/net/rtl8168.c) and the standalone bench / unit tests.
 * The model never reads a clock: every entry point takes `now`, the host's
 * virtual time in nanoseconds, which must never go backwards. The model's
 * range is 0..2^62 ns (146 years, QEMU_CLOCK_VIRTUAL starts at 0): a state
 * blob whose clock is later is refused.
 *
 * Threading: a device handle is not thread-safe; the host serialises calls
 * (QEMU holds the BQL).
 *
 * Re-entrancy: callbacks are invoked synchronously from inside entry points
 * (e.g. transmit() from inside rtl8168_reg_write() in functional mode).
 * A callback must not call back into the same device, with two exceptions,
 * both called when the entry point has finished its work (every event due
 * at `now` has run): transmit(), once per frame that left the wire during
 * the call, in wire order, then rx_ready(). From inside them the host may
 * call any entry point with a `now` at or after the outer call's: a back
 * end that answers a frame synchronously (QEMU's slirp delivers the TCP ACK
 * from inside qemu_send_packet) and qemu_flush_queued_packets do exactly
 * that.
 */
#ifndef RTL8168_RTL8168_H
#define RTL8168_RTL8168_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rtl8168/fault_classes.h" /* the classes the fault_fired trace event names */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rtl8168 rtl8168;

/* Sentinel for timer_arm(): no event pending, cancel the timer. */
#define RTL8168_NO_DEADLINE UINT64_MAX

/* Work bound per entry point (hostile rings, functional mode): one call
 * performs at most RTL8168_MAX_DMA_PER_CALL DMA transactions and hands at
 * most RTL8168_MAX_FRAMES_PER_CALL frames to transmit(). When an engine
 * reaches the bound it parks its remaining work on an event
 * RTL8168_WORK_YIELD_NS in the future (the host timer continues it), so
 * every event due at `now` has still run when the call returns. The
 * bound counts transactions, not descriptors: a TSO descriptor with MSS 1
 * is bounded like a ring of 1-byte frames. */
#define RTL8168_MAX_DMA_PER_CALL 8192u
#define RTL8168_MAX_FRAMES_PER_CALL 2048u
#define RTL8168_WORK_YIELD_NS 1000u

/* Size of the BAR0 (I/O) and BAR2 (MMIO) register windows of the 8168s.
 * Both decode the same 256-byte register file; BAR2 is 4 KiB and decodes
 * nothing above 0xff (see rtl8168_reg_read for what such accesses do). A
 * chip's own BAR2 size is its rtl8168_pci_identity.mmio_size (the RTL8125:
 * 64 KiB, with registers above 0xff). */
#define RTL8168_IO_SIZE 256u
#define RTL8168_MMIO_SIZE 4096u

/* Callbacks the host provides. All pointers except the optional ones are
 * required. `opaque` is passed back unchanged. */
typedef struct rtl8168_host_ops {
  void *opaque;
  /* Bus-master DMA. Return 0 on success, non-zero when the transaction
   * failed (unmapped address, master abort): the model then reports the
   * error the way the hardware does (TxErr/RxErr/SYSErr + counters). */
  int (*dma_read)(void *opaque, uint64_t addr, void *buf, size_t len);
  int (*dma_write)(void *opaque, uint64_t addr, const void *buf, size_t len);
  /* Whether the guest has enabled MSI or MSI-X in config space (queried at
   * each 0->1 edge of INT to choose a message or INTx). */
  bool (*msi_enabled)(void *opaque);
  /* Send one message: MSI-X table entry `vector` when MSI-X is enabled
   * (always below the profile's rtl8168_pci_identity.msix_vectors; a masked
   * entry pends, which is the host's MSI-X emulation's business), else the
   * MSI message. Vector 0 unless the guest chose per-queue messages
   * (rtl8168_chip_info.queue_irqs: ISR v2), whose vector names the event;
   * with MSI the host then sends its one message for each. */
  void (*msi_notify)(void *opaque, unsigned vector);
  /* Drive the INTx pin (level-triggered). Called on every level change
   * while MSI is disabled; called with 0 when MSI becomes used. */
  void (*set_intx)(void *opaque, int level);
  /* A complete Ethernet frame left the wire (no FCS, padded to >= 60).
   * Called at the end of the entry point in which it left (see
   * "Re-entrancy"): its descriptors are already written back. */
  void (*transmit)(void *opaque, const uint8_t *frame, size_t len);
  /* Arm the host's single timer at an absolute virtual time (ns); when it
   * fires the host calls rtl8168_timer_expired(). RTL8168_NO_DEADLINE
   * cancels it. Re-arming replaces the previous deadline. */
  void (*timer_arm)(void *opaque, uint64_t deadline_ns);
  /* Optional: receive path has room again after rtl8168_receive()
   * returned 0 (the QEMU shim calls qemu_flush_queued_packets). Called at
   * the very end of an entry point; re-entering receive from it is allowed. */
  void (*rx_ready)(void *opaque);
  /* Optional: one human-readable line per trace event (no trailing
   * newline), as rtl8168_trace_format() writes it. The trace hash is kept
   * whether or not set. */
  void (*trace)(void *opaque, uint64_t now_ns, const char *line);
  /* Optional: every trace event, typed: `kind` is an rtl8168_trace_kind,
   * args[0..2] its arguments in the order rtl8168_trace_kind_at() names
   * them (unused ones 0). Called before the text line when both are set;
   * cheap enough to leave set (the QEMU shim turns each kind into its own
   * trace event and logs the guest-error / unimp categories). */
  void (*trace_event)(void *opaque, uint64_t now_ns, unsigned kind, const uint64_t *args);
  /* Optional: a Wake-on-LAN event the driver armed in the Config registers
   * happened (the chip's PME#; docs/ARCHITECTURE.md "Wake-on-LAN"). The PCI
   * power management capability is the host's: it sets PME_Status and, when
   * PME_En is set, signals the wake (the QEMU shim wakes a suspended
   * machine). Called inside an entry point; must not re-enter the model. */
  void (*pme)(void *opaque);
} rtl8168_host_ops;

/* ---- configuration ---------------------------------------------------- */

/* A configuration is a set of named parameters (chip profile, timing
 * parameters, quirks, MAC address). Create one, set parameters by name
 * (this is how QEMU properties and bench flags reach the model), then
 * create the device from it. */
typedef struct rtl8168_config rtl8168_config;

rtl8168_config *rtl8168_config_new(void);
/* A configuration whose parameters may be set in any order (QEMU's
 * properties): a "chip" set after other parameters loads its profile's
 * defaults only for the parameters not set explicitly, so the result is the
 * same as with "chip" first. rtl8168_config_new's "chip" loads every default
 * (the bench, the fuzz target and the vfio-user server set it first). */
rtl8168_config *rtl8168_config_new_any_order(void);
void rtl8168_config_free(rtl8168_config *cfg);

/* Set a parameter from its textual value ("chip"="8168c", "timing"="on",
 * "pcie-read-latency"="3060", "lossy-txpoll"="off", "mac"="52:54:00:12:34:56").
 * Setting "chip" first loads that profile's defaults for every parameter.
 * Returns 0, or -1 with a message in err (NUL-terminated, truncated to
 * errlen) naming the parameter and the accepted values. */
int rtl8168_config_set(rtl8168_config *cfg, const char *name, const char *value, char *err,
                       size_t errlen);

/* Read back a parameter's current textual value into buf. Returns 0 or -1
 * for an unknown name. */
int rtl8168_config_get(const rtl8168_config *cfg, const char *name, char *buf, size_t buflen);

/* What kind of value a parameter takes: a host that has typed options (QEMU's
 * properties) maps the kind to its own type and still passes the value as text. */
typedef enum rtl8168_param_type {
  RTL8168_PARAM_TEXT = 0, /* text the model parses ("chip", "mac", "faults", "tx-mxdma") */
  RTL8168_PARAM_BOOL = 1, /* on|off (also true/false, 1/0, yes/no) */
  RTL8168_PARAM_UINT = 2, /* a decimal integer in [min, max], in `unit` */
} rtl8168_param_type;

/* Introspection for --help and QEMU property docs: parameters 0..count-1. */
typedef struct rtl8168_param_info {
  const char *name;         /* e.g. "pcie-read-latency" */
  const char *unit;         /* e.g. "ns", "bytes", "bool", "" */
  const char *description;  /* one line, cites where the value comes from */
  rtl8168_param_type type;
  uint64_t min, max;        /* RTL8168_PARAM_UINT: the accepted range; else 0 */
} rtl8168_param_info;

size_t rtl8168_param_count(void);
const rtl8168_param_info *rtl8168_param_at(size_t index);

/* The PCI identity of the chip profile `cfg` selects ("chip"), for a host
 * that builds the function's configuration space (the QEMU shim): IDs,
 * revision and where the PM, MSI and PCI Express capabilities sit. The
 * model's profile table is the only place these live. */
typedef struct rtl8168_pci_identity {
  uint16_t vendor_id, device_id;
  uint16_t subsystem_vendor_id, subsystem_id;
  uint8_t revision;
  uint8_t pm_offset, msi_offset, pcie_offset;
  /* PCI Express bits to set beyond QEMU's pcie_endpoint_cap_init defaults
   * (0: none): Device Capabilities (the L0s/L1 acceptable latencies, 8:6 and
   * 11:9) and Link Capabilities (ASPM support 11:10, L0s/L1 exit latencies
   * 14:12 and 17:15); aspm_control_writable: make Link Control's ASPM
   * Control (1:0) and the ASPM entrance latency byte 0x70f writable and
   * forward config writes (rtl8168_pci_config_write). */
  uint32_t pcie_devcap_set, pcie_lnkcap_set;
  bool aspm_control_writable;
  /* Size of the MMIO BAR: RTL8168_MMIO_SIZE for the 8168s, 64 KiB for the
   * RTL8125, whose registers fill it. */
  uint32_t mmio_size;
  /* aspm_control_writable: where the ASPM entrance latency byte sits in
   * configuration space (0x70f) and its power-on value. */
  uint16_t aspm_entry_latency_offset;
  uint8_t aspm_entry_latency_reset;
  /* MSI-X (0 vectors: none, the 8168s): the capability's offset, the number
   * of table entries, and the BAR that holds table and PBA (its index, size
   * and the two offsets in it). The RTL8125B: capability 0xb0, 32 entries,
   * table at offset 0 and PBA at 0x800 of the 16 KiB BAR 4 (lspci -vv). */
  uint8_t msix_offset;
  uint16_t msix_vectors;
  uint8_t msix_bar;
  uint32_t msix_bar_size, msix_table_offset, msix_pba_offset;
} rtl8168_pci_identity;

void rtl8168_config_pci_identity(const rtl8168_config *cfg, rtl8168_pci_identity *out);

/* ---- chip profiles ------------------------------------------------------ */

/* Every chip the model knows, for hosts and tools that must not copy the
 * profile table (the qtest, the guest scenarios, the fuzz target, the
 * scripts: `rtl8168-bench chips --json` prints this list). Strings are
 * static and NUL-terminated. */
enum { RTL8168_PHY_PATH_PHYAR = 1, RTL8168_PHY_PATH_GPHY_OCP = 2 };
typedef struct rtl8168_chip_info {
  const char *id;             /* the `chip` parameter: "8168h" */
  const char *name;           /* r8169's name: "RTL8168h/8111h" */
  const char *r8169_version;  /* the RTL_GIGA_MAC_VER_* r8169 maps its XID to */
  const char *firmware;       /* the rtl_nic/ file r8169 asks for, "" if none */
  uint32_t txconfig_reset;    /* TxConfig at power-on (XID in bits 31:20) */
  uint16_t xid;               /* (TxConfig >> 20) & 0xfcf, as r8169 reads it */
  uint32_t phy_id;            /* MII PHYSID1 << 16 | PHYSID2 */
  unsigned phy_paths;         /* RTL8168_PHY_PATH_* bits: how a driver reaches the PHY */
  bool mac_ocp;               /* MAC OCP space behind OCPDR (8168g class) */
  bool side_buses;            /* ERI / EPHY / CSI */
  uint32_t reg_window;        /* bytes of registers behind the BARs */
  uint32_t max_frame;         /* the largest frame it sends (jumbo limit) */
  unsigned tx_queues, rx_queues;  /* rows of its ring table */
  rtl8168_pci_identity pci;
  /* Where a driver finds IntrStatus / IntrMask (the 8168: 0x3e / 0x3c, 2
   * bytes; the RTL8125: 0x3c / 0x38, 4 bytes) and the TX doorbell (the
   * 8168's TxPoll 0x38, 1 byte; the RTL8125's 0x90, 2 bytes) with the bits
   * that ring TX queue 0 and 1 (NPQ 0x40 / HPQ 0x80; bit 0 / bit 1). */
  uint16_t intr_status, intr_mask;
  unsigned intr_width;
  uint16_t doorbell;
  unsigned doorbell_width;
  uint16_t doorbell_bits[2];
  /* TX queue 0's and 1's ring base register (low dword; the high one
   * follows at +4): 0x20 and 0x28 on the 8168, 0x20 and 0x2100 on the 8125. */
  uint16_t tx_ring_base[2];
  /* The RTL8125B's per-queue interrupt registers (docs/R8125.md "ISR v2 and
   * per-queue vectors"): with INT_CFG0 (0x34) bit 0, INT is ISR_V2 (0xd04,
   * 32 bits) & IMR_V2 (IMR_V2_SET 0xd0c / IMR_V2_CLEAR 0xd00), one message
   * per bit (MSI-X entry = bit); without it, ISR1-ISR3 (0x802 + 4 (q - 1),
   * 16 bits) & IMR1-IMR3 (0x800 + 4 (q - 1)) count in INT beside IntrStatus
   * & IntrMask. */
  bool queue_irqs;
  /* The fastest mode of its PHY (Mbit/s): the speed it links at with a
   * partner that has every mode (1000; 2500 for the RTL8125's 2.5G PHY). */
  uint32_t link_mbps;
} rtl8168_chip_info;

size_t rtl8168_chip_count(void);
/* Fill `out` for chip `index` (0..count-1). Returns 0, or -1 past the end. */
int rtl8168_chip_at(size_t index, rtl8168_chip_info *out);

/* ---- device lifetime -------------------------------------------------- */

/* Create a device in its power-on state. `ops` is copied. Returns NULL
 * with a message in err if the configuration is inconsistent. */
rtl8168 *rtl8168_create(const rtl8168_config *cfg, const rtl8168_host_ops *ops, char *err,
                        size_t errlen);
void rtl8168_destroy(rtl8168 *dev);

/* Power-on / PCI function reset (not the ChipCmd software reset): every
 * register to its reset value, MAC reloaded from the configuration, PHY
 * reset, pending events dropped, INTx deasserted, statistics zero. Faults
 * added with rtl8168_fault_add are dropped and the `faults` parameter's
 * schedule is installed again (a configured fault due at `now` fires
 * inside the call, and is counted). */
void rtl8168_reset(rtl8168 *dev, uint64_t now);

/* ---- guest register access -------------------------------------------- */

/* Register access through BAR0 or BAR2 (same decode). size is 1, 2, 4 or
 * 8. Aligned accesses inside BAR2 above the register file (0x100 to the
 * end of the chip's BAR, rtl8168_pci_identity.mmio_size) reach the chip's
 * registers there (the RTL8125's); elsewhere they decode nothing: they read
 * 0 and writes are ignored (traced). Accesses the
 * hardware does not support (unaligned, 8-byte, beyond the BAR) read as
 * all-ones, are ignored and are counted as bad_access. Reads have no side
 * effects, except that an irq-race:after=read fault (docs/FAULTS.md) makes
 * a device event happen right after an IntrStatus read. */
uint64_t rtl8168_reg_read(rtl8168 *dev, uint64_t now, uint32_t offset, unsigned size);
void rtl8168_reg_write(rtl8168 *dev, uint64_t now, uint32_t offset, uint64_t value,
                       unsigned size);

/* ---- time ------------------------------------------------------------- */

/* The timer armed through timer_arm() fired: run every event due at or
 * before `now` and re-arm. Calling it early or late is harmless. */
void rtl8168_timer_expired(rtl8168 *dev, uint64_t now);

/* ---- network side ----------------------------------------------------- */

/* True when rtl8168_receive() would accept a standard frame (up to 1522
 * bytes) now: room in the RX FIFO. A frame refused by the accept filter or for
 * lack of RX descriptors is still *accepted* and counted as dropped; only
 * a full FIFO applies back-pressure. */
bool rtl8168_can_receive(rtl8168 *dev, uint64_t now);

/* Offer one frame (no FCS) arriving from the wire at `now`. Returns len if
 * the frame was consumed (delivered, or dropped and counted), 0 if the host
 * must queue it and retry after rx_ready(). A NULL frame is a bad call: it
 * is counted in bad_calls and consumed (returns len). */
size_t rtl8168_receive(rtl8168 *dev, uint64_t now, const uint8_t *frame, size_t len);

/* Carrier from the host side (QEMU set_link). Link down is immediate;
 * link up restarts autonegotiation (LinkChg when it completes). */
void rtl8168_set_link(rtl8168 *dev, uint64_t now, bool up);

/* A write the guest made to the function's PCI configuration space (addr,
 * the value as written, len 1/2/4), forwarded after the host applied it. The
 * model reads Link Control's ASPM Control and the ASPM entrance latency byte
 * at 0x70f (profiles that model ASPM L1, pcie_link.h); other writes and
 * other profiles: nothing happens. A write outside 4 KiB or of another width
 * is ignored. */
void rtl8168_pci_config_write(rtl8168 *dev, uint64_t now, uint32_t addr, uint32_t value,
                              unsigned len);

/* ---- state save / restore --------------------------------------------- */

/* Size of the current state blob (it grows with in-flight frames). */
size_t rtl8168_state_size(const rtl8168 *dev);
/* Serialise into buf; returns bytes written, 0 if buflen is too small. */
size_t rtl8168_state_save(const rtl8168 *dev, uint8_t *buf, size_t buflen);
/* Restore a blob from rtl8168_state_save() of a device with the same chip
 * profile. Returns 0, or -1 with a message (bad magic, version, profile,
 * truncated). Never raises an interrupt or calls transmit; it re-arms the
 * timer and re-drives the INTx level only. */
int rtl8168_state_load(rtl8168 *dev, const uint8_t *buf, size_t len, char *err, size_t errlen);

/* ---- fault injection (docs/FAULTS.md) ------------------------------------ */

/* Add one or more faults to the device's schedule: `spec` is
 * "class[:key=value,...]" with several faults separated by ';'
 * ("dma-read:nth=5", "link:at=+5ms,down;spurious-irq:at=2ms,bits=0x8001").
 * A fault fires from its trigger (virtual time, the Nth DMA transaction /
 * frame / IntrStatus access, a guest address window), deterministically,
 * and each firing is a fault_fired trace event. Returns 0, or -1 with a
 * message in err (the fault, the key, the accepted values) and nothing
 * added. At most 32 faults; numbers are bounded (see docs/FAULTS.md).
 * rtl8168_reset drops the added faults and re-installs the `faults`
 * parameter's schedule; a ChipCmd reset keeps the schedule. */
int rtl8168_fault_add(rtl8168 *dev, uint64_t now, const char *spec, char *err, size_t errlen);
/* Drop every fault (the configured ones too, until the next rtl8168_reset). */
void rtl8168_fault_clear(rtl8168 *dev, uint64_t now);
/* The schedule as one JSON object (for a QMP query- command):
 * {"faults": [{"index": 0, "spec": "dma-read:nth=5,count=1", "class":
 * "dma-read", "state": "armed|waiting|done|active", "seen": N, "fired": N,
 * "next": T|null}, ...], "tx_stalled": false, "fired_total": N}.
 * snprintf semantics: returns the length the full text needs. */
size_t rtl8168_fault_list(const rtl8168 *dev, char *buf, size_t buflen);

/* ---- observability ---------------------------------------------------- */

/* A 64-bit hash (FNV-1a style, word-wise) over every trace event since
 * creation/reset (survives
 * save/restore), so two runs can be compared bit for bit. */
uint64_t rtl8168_trace_hash(const rtl8168 *dev);
uint64_t rtl8168_trace_events(const rtl8168 *dev);

/* Trace events (rtl8168/trace_events.def lists every kind once, with its
 * named arguments and category). */
typedef enum rtl8168_trace_category {
  RTL8168_TRACE_INFO,         /* a guest-visible decision */
  RTL8168_TRACE_GUEST_ERROR,  /* the guest did something the hardware does not support */
  RTL8168_TRACE_UNIMP,        /* the guest used something the model does not implement */
  RTL8168_TRACE_HOST_ERROR,   /* the host misused this API */
} rtl8168_trace_category;

typedef enum rtl8168_trace_arg_type {
  RTL8168_TRACE_X32, /* uint32_t, printed in hex */
  RTL8168_TRACE_U32, /* uint32_t, decimal */
  RTL8168_TRACE_X64, /* uint64_t, hex */
  RTL8168_TRACE_U64, /* uint64_t, decimal */
} rtl8168_trace_arg_type;

/* The C type of each argument type tag of trace_events.def. */
#define RTL8168_TRACE_CTYPE_X32 uint32_t
#define RTL8168_TRACE_CTYPE_U32 uint32_t
#define RTL8168_TRACE_CTYPE_X64 uint64_t
#define RTL8168_TRACE_CTYPE_U64 uint64_t

typedef enum rtl8168_trace_kind {
#define RTL8168_TRACE_EVENT0(NAME, name, cat, code, w0, w1, w2, doc) RTL8168_TRACE_##NAME,
#define RTL8168_TRACE_EVENT1(NAME, name, cat, code, t1, a1, doc) RTL8168_TRACE_##NAME,
#define RTL8168_TRACE_EVENT2(NAME, name, cat, code, t1, a1, t2, a2, doc) RTL8168_TRACE_##NAME,
#define RTL8168_TRACE_EVENT3(NAME, name, cat, code, t1, a1, t2, a2, t3, a3, doc) RTL8168_TRACE_##NAME,
#include "rtl8168/trace_events.def"
#undef RTL8168_TRACE_EVENT0
#undef RTL8168_TRACE_EVENT1
#undef RTL8168_TRACE_EVENT2
#undef RTL8168_TRACE_EVENT3
  RTL8168_TRACE_KIND_COUNT
} rtl8168_trace_kind;

typedef struct rtl8168_trace_kind_info {
  const char *name;         /* "reg_read": the QEMU trace event is rtl8168_reg_read */
  const char *description;  /* one line */
  rtl8168_trace_category category;
  unsigned hash_code;       /* the kind word the trace hash mixes */
  unsigned nargs;           /* 0..3 */
  const char *arg_names[3];
  rtl8168_trace_arg_type arg_types[3];
} rtl8168_trace_kind_info;

/* The description of `kind`, NULL when kind >= RTL8168_TRACE_KIND_COUNT. */
const rtl8168_trace_kind_info *rtl8168_trace_kind_at(unsigned kind);
/* "info", "guest-error", "unimp", "host-error" (NULL if out of range). */
const char *rtl8168_trace_category_name(rtl8168_trace_category category);
/* Format one event as "name arg=value ..." (snprintf semantics: returns the
 * length the full line needs; an unknown kind formats as "unknown"). */
size_t rtl8168_trace_format(unsigned kind, const uint64_t *args, char *buf, size_t buflen);

/* Model-side counters (a superset of the DTCCR tally block): one uint64_t
 * per line of rtl8168/stats.def (its name and what it counts), in that order. */
typedef struct rtl8168_stats {
#define RTL8168_STAT(name, blob, fault_drop, doc) uint64_t name;
#include "rtl8168/stats.def"
#undef RTL8168_STAT
} rtl8168_stats;

void rtl8168_get_stats(const rtl8168 *dev, rtl8168_stats *out);
/* The counters as one JSON object, {"tx_frames": 12, "tx_bytes": 780, ...}:
 * every field of rtl8168_stats by name, in its order (QEMU's x-stats). A NULL
 * dev gives every counter 0. snprintf semantics: returns the length the full
 * text needs. */
size_t rtl8168_stats_json(const rtl8168 *dev, char *buf, size_t buflen);

/* Human-readable chip name ("RTL8168c/8111c"). */
const char *rtl8168_chip_name(const rtl8168 *dev);

#ifdef __cplusplus
}
#endif

#endif /* RTL8168_RTL8168_H */
