/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * QEMU glue for the rtl8168-sim RTL8168 (RTL8111/8168 PCIe GbE) NIC model.
 *
 * This file is thin on purpose, like QEMU's igb.c / e1000e.c glue: it owns QOM,
 * the BARs, the PCI capabilities, the net client, the timer, vmstate and the
 * properties; everything the guest can observe is decided by the model behind
 * the C API in <rtl8168/rtl8168.h> (rtl8168-sim, model/), which never reads a
 * clock: every call passes QEMU_CLOCK_VIRTUAL time.
 *
 * Record/replay rules followed here: one QEMU_CLOCK_VIRTUAL timer, no host
 * time, no bottom halves (deferred RX flushes run at the end of the entry point
 * that asked for them), post_load raises no interrupt.
 *
 * RX order: a NIC never reorders frames; the model's RX-order gate
 * (<rtl8168/rx_order.h>) keeps QEMU's net queues from doing it, see
 * "RX order" below for the wiring.
 *
 * Copyright (c) 2026 rtl8168-sim developers
 */

#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/pci/pci_device.h"
#include "hw/pci/pcie.h"
#include "hw/pci/msi.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "hw/pci/msix.h"
#include "net/net.h"
#include "qom/object.h"
#include "system/runstate.h"
#include "trace.h"

#include <rtl8168/rtl8168.h>
#include <rtl8168/rx_order.h>

#define TYPE_RTL8168 "rtl8168"
OBJECT_DECLARE_SIMPLE_TYPE(RTL8168State, RTL8168)

/*
 * Chip identity (device ID, revision, subsystem, capability offsets) comes
 * from the model's profile table (rtl8168_config_pci_identity) at realize
 * time; the class's device ID is the default chip's.
 */
#define RTL8168_IO_BAR 0
#define RTL8168_MMIO_BAR 2

/*
 * Upper bound for an incoming state blob (the model's blob is a few KiB plus
 * in-flight frames); rejects a corrupt stream before allocating.
 */
#define RTL8168_STATE_MAX (16 * 1024 * 1024)

struct RTL8168State {
    PCIDevice parent_obj;

    NICState *nic;
    NICConf conf;
    MemoryRegion io;
    MemoryRegion mmio;
    MemoryRegion msix_bar;  /* MSI-X table and PBA (profiles with MSI-X) */
    uint16_t msix_vectors;  /* 0: the profile has no MSI-X */
    QEMUTimer *timer;

    rtl8168 *dev;
    rtl8168_rx_order *rx_order; /* RX order (see "RX order" below) */

    /*
     * The model's configuration, which the parameter properties set in any
     * order (the model keeps them over a later "chip") and realize creates
     * the device from.
     */
    rtl8168_config *cfg;

    /* x-pme: the PM capability advertises PME# (see rtl8168_add_pm_capability) */
    bool pme;

    /* The profile models the link's ASPM: config writes go to the model. */
    bool config_to_model;

    /* Migration: the model's state blob, only valid around save/load. */
    uint32_t state_len;
    uint8_t *state;
};

static uint64_t rtl8168_now(void)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

/*
 * ---- RX order -----------------------------------------------------------
 *
 * A NIC never reorders frames, but QEMU's net layer will unless the device
 * helps it (a new frame goes straight to receive() past queued ones; a hub
 * port's queue is flushed before ours; the model's readiness changes with
 * virtual time). When to refuse and when to drain is decided by the model's
 * RX-order gate, <rtl8168/rx_order.h> (the why, in full, is there). The glue:
 * every model call from a QEMU callback is bracketed by model_begin/done
 * (done drains synchronously when the outermost call returns: deterministic
 * under record/replay, unlike a bottom half), a drain is
 * qemu_flush_queued_packets() on our queue, readiness is
 * rtl8168_can_receive().
 */
static bool rtl8168_rx_order_ready(void *opaque)
{
    RTL8168State *s = opaque;

    return rtl8168_can_receive(s->dev, rtl8168_now());
}

static void rtl8168_rx_order_flush(void *opaque)
{
    RTL8168State *s = opaque;

    qemu_flush_queued_packets(qemu_get_queue(s->nic));
}

/* Before a model call made from a QEMU callback. */
static void rtl8168_model_begin(RTL8168State *s)
{
    rtl8168_rx_order_begin(s->rx_order);
}

/* After it: drain if the model asked. */
static void rtl8168_model_done(RTL8168State *s)
{
    rtl8168_rx_order_end(s->rx_order);
}

/* ---- host callbacks (model -> QEMU) ------------------------------------ */

/*
 * DMA (and the MSI write) from the model: with the device's re-entrancy
 * guard engaged, like QEMU's MMIO dispatch does for a guest access, so a
 * descriptor, buffer or MSI address aimed at our own BARs is refused
 * (MEMTX_ACCESS_ERROR: the model counts it and raises SYSErr) instead of
 * re-entering the model from its own callback. MMIO dispatch engages the
 * guard already; the timer (timing=on: most DMA happens there) and the net
 * layer's flush do not. The qtest case dma-reentrancy aims RX and TX buffers
 * at the device's own BAR.
 */
static bool rtl8168_guard_enter(void *opaque)
{
    MemReentrancyGuard *g = &DEVICE(opaque)->mem_reentrancy_guard;
    bool was = g->engaged_in_io;

    g->engaged_in_io = true;
    return was;
}

static void rtl8168_guard_leave(void *opaque, bool was)
{
    DEVICE(opaque)->mem_reentrancy_guard.engaged_in_io = was;
}

static int rtl8168_host_dma_read(void *opaque, uint64_t addr, void *buf,
                                 size_t len)
{
    bool was = rtl8168_guard_enter(opaque);
    MemTxResult res = pci_dma_read(PCI_DEVICE(opaque), addr, buf, len);

    rtl8168_guard_leave(opaque, was);

    if (res != MEMTX_OK) {
        trace_rtl8168_dma_error("read", addr, len, res);
    }
    return res != MEMTX_OK;
}

static int rtl8168_host_dma_write(void *opaque, uint64_t addr, const void *buf,
                                  size_t len)
{
    bool was = rtl8168_guard_enter(opaque);
    MemTxResult res = pci_dma_write(PCI_DEVICE(opaque), addr, buf, len);

    rtl8168_guard_leave(opaque, was);

    if (res != MEMTX_OK) {
        trace_rtl8168_dma_error("write", addr, len, res);
    }
    return res != MEMTX_OK;
}

/* MSI or MSI-X: the model signals with messages, not INTx. */
static bool rtl8168_host_msi_enabled(void *opaque)
{
    PCIDevice *pdev = PCI_DEVICE(opaque);

    return msi_enabled(pdev) || msix_enabled(pdev);
}

/*
 * MSI-X entry `vector` when MSI-X is enabled (QEMU's msix_notify keeps a
 * masked entry pending in the PBA and sends it on unmask), else the MSI.
 */
static void rtl8168_host_msi_notify(void *opaque, unsigned vector)
{
    RTL8168State *s = RTL8168(opaque);
    PCIDevice *pdev = PCI_DEVICE(opaque);
    bool was = rtl8168_guard_enter(opaque);

    if (msix_enabled(pdev) && vector < s->msix_vectors) {
        msix_notify(pdev, vector);
    } else {
        msi_notify(pdev, 0);
    }
    rtl8168_guard_leave(opaque, was);
}

static void rtl8168_host_set_intx(void *opaque, int level)
{
    pci_set_irq(PCI_DEVICE(opaque), level != 0);
}

/*
 * Called once the model call has done its work (rtl8168.h "Re-entrancy"):
 * slirp may answer from inside qemu_send_packet() by delivering a frame
 * straight back to rtl8168_nc_receive(), which the model allows here.
 */
static void rtl8168_host_transmit(void *opaque, const uint8_t *frame,
                                  size_t len)
{
    qemu_send_packet(qemu_get_queue(RTL8168(opaque)->nic), frame, len);
}

static void rtl8168_host_timer_arm(void *opaque, uint64_t deadline_ns)
{
    RTL8168State *s = RTL8168(opaque);

    if (deadline_ns == RTL8168_NO_DEADLINE) {
        timer_del(s->timer);
    } else {
        timer_mod(s->timer, MIN(deadline_ns, (uint64_t)INT64_MAX));
    }
}

/* From inside a model call: drained once the outermost call has returned. */
static void rtl8168_host_rx_ready(void *opaque)
{
    rtl8168_rx_order_rx_ready(RTL8168(opaque)->rx_order);
}

/*
 * Guest errors and unimplemented registers the model reports (categories of
 * <rtl8168/trace_events.def>), logged the QEMU way: -d guest_errors,unimp
 * (both off by default, so a hostile guest floods nothing).
 */
static void rtl8168_log_event(void *opaque, rtl8168_trace_category cat,
                              unsigned kind, const uint64_t *args)
{
    int mask = cat == RTL8168_TRACE_UNIMP ? LOG_UNIMP : LOG_GUEST_ERROR;
    const char *id = DEVICE(opaque)->id;
    char line[160];

    if (cat == RTL8168_TRACE_HOST_ERROR) {
        rtl8168_trace_format(kind, args, line, sizeof(line));
        warn_report_once("rtl8168: %s (a bug in this device's glue)", line);
        return;
    }
    if (!qemu_loglevel_mask(mask)) {
        return;
    }
    rtl8168_trace_format(kind, args, line, sizeof(line));
    qemu_log_mask(mask, "rtl8168 %s: %s\n", id ? id : "", line);
}

/*
 * Every model trace event becomes its own QEMU trace event rtl8168_<name>
 * (-trace 'rtl8168_*'), generated into rtl8168.trace-events from the same
 * list by rtl8168-trace-events; the switch below is generated from it too.
 */
static void rtl8168_host_trace_event(void *opaque, uint64_t now_ns,
                                     unsigned kind, const uint64_t *a)
{
    rtl8168_trace_category cat = RTL8168_TRACE_INFO;

    switch (kind) {
#define RTL8168_TRACE_EVENT0(NAME, name, category, code, w0, w1, w2, doc) \
    case RTL8168_TRACE_##NAME: \
        trace_rtl8168_##name(now_ns); \
        cat = RTL8168_TRACE_##category; \
        break;
#define RTL8168_TRACE_EVENT1(NAME, name, category, code, t1, a1, doc) \
    case RTL8168_TRACE_##NAME: \
        trace_rtl8168_##name(now_ns, (RTL8168_TRACE_CTYPE_##t1)a[0]); \
        cat = RTL8168_TRACE_##category; \
        break;
#define RTL8168_TRACE_EVENT2(NAME, name, category, code, t1, a1, t2, a2, doc) \
    case RTL8168_TRACE_##NAME: \
        trace_rtl8168_##name(now_ns, (RTL8168_TRACE_CTYPE_##t1)a[0], \
                             (RTL8168_TRACE_CTYPE_##t2)a[1]); \
        cat = RTL8168_TRACE_##category; \
        break;
#define RTL8168_TRACE_EVENT3(NAME, name, category, code, t1, a1, t2, a2, t3, \
                             a3, doc) \
    case RTL8168_TRACE_##NAME: \
        trace_rtl8168_##name(now_ns, (RTL8168_TRACE_CTYPE_##t1)a[0], \
                             (RTL8168_TRACE_CTYPE_##t2)a[1], \
                             (RTL8168_TRACE_CTYPE_##t3)a[2]); \
        cat = RTL8168_TRACE_##category; \
        break;
#include <rtl8168/trace_events.def>
#undef RTL8168_TRACE_EVENT0
#undef RTL8168_TRACE_EVENT1
#undef RTL8168_TRACE_EVENT2
#undef RTL8168_TRACE_EVENT3
    default:
        break;
    }
    if (cat != RTL8168_TRACE_INFO) {
        rtl8168_log_event(opaque, cat, kind, a);
    }
}

/* ---- guest register access (BAR0 I/O and BAR2 MMIO, same decode) ------- */

static uint64_t rtl8168_reg_read_cb(void *opaque, hwaddr addr, unsigned size)
{
    RTL8168State *s = RTL8168(opaque);
    uint64_t val;

    /* A read runs the events due by now too (timing=on: RX FIFO drains). */
    rtl8168_model_begin(s);
    val = rtl8168_reg_read(s->dev, rtl8168_now(), addr, size);
    rtl8168_model_done(s);
    return val;
}

static void rtl8168_reg_write_cb(void *opaque, hwaddr addr, uint64_t val,
                                 unsigned size)
{
    RTL8168State *s = RTL8168(opaque);

    rtl8168_model_begin(s);
    rtl8168_reg_write(s->dev, rtl8168_now(), addr, val, size);
    rtl8168_model_done(s);
}

/*
 * Sizes 1..4 and any alignment reach the model, which judges them the way
 * the chip does (unsupported accesses read all-ones / are ignored).
 */
static const MemoryRegionOps rtl8168_reg_ops = {
    .read = rtl8168_reg_read_cb,
    .write = rtl8168_reg_write_cb,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 1,
        .max_access_size = 4,
        .unaligned = true,
    },
    .impl = {
        .min_access_size = 1,
        .max_access_size = 4,
        .unaligned = true,
    },
};

/* ---- timer ------------------------------------------------------------- */

static void rtl8168_timer_cb(void *opaque)
{
    RTL8168State *s = RTL8168(opaque);

    rtl8168_model_begin(s);
    rtl8168_timer_expired(s->dev, rtl8168_now());
    rtl8168_model_done(s);
}

/* ---- net client -------------------------------------------------------- */

/* "Can a frame be handed over now, ahead of nothing?" (RX order, above) */
static bool rtl8168_nc_can_receive(NetClientState *nc)
{
    RTL8168State *s = qemu_get_nic_opaque(nc);

    return rtl8168_rx_order_can_receive(s->rx_order);
}

/*
 * Returns 0 when the model applies back-pressure: the net layer keeps the
 * frame at the head of our queue (and stops delivering) until a drain.
 * Always called while our own queue is being delivered, so no drain here.
 */
static ssize_t rtl8168_nc_receive(NetClientState *nc, const uint8_t *buf,
                                  size_t size)
{
    RTL8168State *s = qemu_get_nic_opaque(nc);
    size_t taken;

    rtl8168_model_begin(s);
    taken = rtl8168_receive(s->dev, rtl8168_now(), buf, size);
    rtl8168_rx_order_end_receive(s->rx_order, taken);
    return taken;
}

static void rtl8168_nc_link_status_changed(NetClientState *nc)
{
    RTL8168State *s = qemu_get_nic_opaque(nc);

    rtl8168_model_begin(s);
    rtl8168_set_link(s->dev, rtl8168_now(), !nc->link_down);
    rtl8168_model_done(s);
}

static NetClientInfo net_rtl8168_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .can_receive = rtl8168_nc_can_receive,
    .receive = rtl8168_nc_receive,
    .link_status_changed = rtl8168_nc_link_status_changed,
};

/* ---- model parameters as QOM properties -------------------------------- */

/*
 * One property per model parameter (rtl8168_param_at()), of the QOM type
 * of the parameter's kind, so -device rtl8168,help shows <bool>/<uint64>/<str>
 * like other devices' typed properties; the value goes to the model as text,
 * which checks it. uint64: phy-an-time goes past 2^32 ns.
 */
static const char *const rtl8168_param_qom_type[] = {
    [RTL8168_PARAM_TEXT] = "str",
    [RTL8168_PARAM_BOOL] = "bool",
    [RTL8168_PARAM_UINT] = "uint64",
};

/* The longest value text a get returns (a fault schedule is the longest). */
#define RTL8168_PARAM_TEXT_MAX 4096

static void rtl8168_param_get(Object *obj, Visitor *v, const char *name,
                              void *opaque, Error **errp)
{
    const rtl8168_param_info *info = opaque;
    g_autofree char *value = g_malloc0(RTL8168_PARAM_TEXT_MAX);
    bool b;
    uint64_t u;

    rtl8168_config_get(RTL8168(obj)->cfg, info->name, value,
                       RTL8168_PARAM_TEXT_MAX);
    switch (info->type) {
    case RTL8168_PARAM_BOOL:
        b = !strcmp(value, "on");
        visit_type_bool(v, name, &b, errp);
        break;
    case RTL8168_PARAM_UINT:
        u = g_ascii_strtoull(value, NULL, 10);
        visit_type_uint64(v, name, &u, errp);
        break;
    default:
        visit_type_str(v, name, &value, errp);
        break;
    }
}

static void rtl8168_param_set(Object *obj, Visitor *v, const char *name,
                              void *opaque, Error **errp)
{
    RTL8168State *s = RTL8168(obj);
    const rtl8168_param_info *info = opaque;
    g_autofree char *value = NULL;
    char err[512];
    bool b;
    uint64_t u;

    if (DEVICE(obj)->realized) {
        error_setg(errp, "rtl8168: property '%s' cannot be changed after the "
                   "device is realized", name);
        return;
    }
    switch (info->type) {
    case RTL8168_PARAM_BOOL:
        if (!visit_type_bool(v, name, &b, errp)) {
            return;
        }
        value = g_strdup(b ? "on" : "off");
        break;
    case RTL8168_PARAM_UINT:
        if (!visit_type_uint64(v, name, &u, errp)) {
            return;
        }
        value = g_strdup_printf("%" PRIu64, u);
        break;
    default:
        if (!visit_type_str(v, name, &value, errp)) {
            return;
        }
        break;
    }
    if (rtl8168_config_set(s->cfg, info->name, value, err, sizeof(err))) {
        error_setg(errp, "rtl8168: %s", err);
    }
}

/*
 * Described by the model's doc string, unit and range plus the default of the
 * default chip profile. Names QEMU already uses ("mac" comes from
 * DEFINE_NIC_PROPERTIES) are skipped.
 */
static void rtl8168_class_add_params(ObjectClass *klass)
{
    rtl8168_config *defaults = rtl8168_config_new();
    size_t i;

    for (i = 0; i < rtl8168_param_count(); i++) {
        const rtl8168_param_info *info = rtl8168_param_at(i);
        char def[256] = "";
        g_autofree char *range = NULL;
        g_autofree char *desc = NULL;

        if (object_class_property_find(klass, info->name)) {
            continue;
        }
        rtl8168_config_get(defaults, info->name, def, sizeof(def));
        if (info->type == RTL8168_PARAM_UINT) {
            range = g_strdup_printf(" [%s, %" PRIu64 "..%" PRIu64 "]",
                                    info->unit, info->min, info->max);
        }
        desc = g_strdup_printf("%s%s (default: %s)", info->description,
                               range ? range : "", def);
        object_class_property_add(klass, info->name,
                                  rtl8168_param_qom_type[info->type],
                                  rtl8168_param_get, rtl8168_param_set, NULL,
                                  (void *)info);
        object_class_property_set_description(klass, info->name, desc);
    }
    rtl8168_config_free(defaults);
}

/* ---- PCI --------------------------------------------------------------- */

static void rtl8168_write_config(PCIDevice *pdev, uint32_t addr, uint32_t val,
                                 int len)
{
    RTL8168State *s = RTL8168(pdev);
    bool msi_was_enabled = rtl8168_host_msi_enabled(s);

    pci_default_write_config(pdev, addr, val, len);
    /*
     * The model asks msi_enabled() at each INT edge; a pending INTx level
     * must not stay asserted once the function signals with MSI or MSI-X.
     */
    if (!msi_was_enabled && rtl8168_host_msi_enabled(s)) {
        pci_irq_deassert(pdev);
    }
    /* Link Control's ASPM Control and the ASPM entrance latency (the model
     * picks what it models, pcie_link.h); profiles without ASPM see none. */
    if (s->dev && s->config_to_model) {
        rtl8168_model_begin(s);
        rtl8168_pci_config_write(s->dev, rtl8168_now(), addr, val, len);
        rtl8168_model_done(s);
    }
}

/*
 * The PCI Express capability as the chip profile describes it beyond
 * QEMU's endpoint defaults: the acceptable latencies (Device Capabilities),
 * ASPM support and exit latencies (Link Capabilities), and for profiles that
 * model ASPM L1 a writable ASPM Control and ASPM entrance latency byte
 * (r8169 rtl_set_aspm_entry_latency), at the model's offset and power-on value.
 */
static void rtl8168_apply_pcie_aspm(PCIDevice *pdev,
                                    const rtl8168_pci_identity *id)
{
    uint8_t *exp = pdev->config + pdev->exp.exp_cap;
    uint16_t lat = id->aspm_entry_latency_offset;

    if (id->pcie_devcap_set || id->pcie_lnkcap_set) {
        pci_long_test_and_set_mask(exp + PCI_EXP_DEVCAP, id->pcie_devcap_set);
        pci_long_test_and_clear_mask(exp + PCI_EXP_LNKCAP,
                                     PCI_EXP_LNKCAP_ASPMS |
                                     PCI_EXP_LNKCAP_L0SEL |
                                     PCI_EXP_LNKCAP_L1EL);
        pci_long_test_and_set_mask(exp + PCI_EXP_LNKCAP, id->pcie_lnkcap_set);
    }
    if (id->aspm_control_writable) {
        pci_word_test_and_set_mask(pdev->wmask + pdev->exp.exp_cap +
                                   PCI_EXP_LNKCTL, PCI_EXP_LNKCTL_ASPMC);
        if (pci_config_size(pdev) > lat) {
            pdev->config[lat] = id->aspm_entry_latency_reset;
            pdev->wmask[lat] = 0xff;
        }
    }
}

/*
 * PCI PM 1.1 without PME by default: the r8169 driver then keeps the device
 * out of runtime suspend (docs/R8169.md section 8). With x-pme=on it
 * advertises PME# from D0 and D3hot, as the real chips do: Linux then marks
 * the device wakeup-capable (pci_pm_init), so `ethtool -s IF wol g` makes
 * device_may_wakeup() true and r8169 takes its Wake-on-LAN paths on close
 * (rtl_prepare_power_down -> rtl_wol_enable_rx keeps RX accepting frames; the
 * dma-after-close episode, docs/HISTORY.md). The model reports the wake
 * events the driver armed (rtl8168_host_pme).
 */
static bool rtl8168_add_pm_capability(PCIDevice *pdev, uint8_t off, bool pme,
                                      Error **errp)
{
    if (pci_pm_init(pdev, off, errp) < 0) {
        return false;
    }
    pci_set_word(pdev->config + off + PCI_PM_PMC,
                 PCI_PM_CAP_VER_1_1 |
                 (pme ? PCI_PM_CAP_PME_D0 | PCI_PM_CAP_PME_D3hot : 0));
    pci_set_word(pdev->wmask + off + PCI_PM_CTRL,
                 PCI_PM_CTRL_STATE_MASK | (pme ? PCI_PM_CTRL_PME_ENABLE : 0));
    if (pme) {
        pci_set_word(pdev->w1cmask + off + PCI_PM_CTRL, PCI_PM_CTRL_PME_STATUS);
    }
    return true;
}

/*
 * The chip's PME# (model/src/wake.h: a link-up or magic packet the driver
 * armed in the Config registers). PME_Status is set whenever the function
 * would signal PME, whatever PME_En (PCI PM 1.2, 3.2.4); with PME_En set
 * the wake is signalled. QEMU gives a PCIe function no PME message path on
 * q35 (its root ports raise no PME interrupt, no ACPI GPE covers PCI PME),
 * so the guest learns of the wake by polling PME_Status (Linux
 * pci_pme_list_scan, once a second, for devices with PME enabled), and a
 * machine suspended to RAM is woken as a platform's PME wake would
 * (qemu_system_wakeup_request). Without x-pme the capability advertises no
 * PME and PME_Status stays 0.
 */
static void rtl8168_host_pme(void *opaque)
{
    RTL8168State *s = opaque;
    PCIDevice *pdev = PCI_DEVICE(s);
    uint8_t *pmcsr = pdev->config + pdev->pm_cap + PCI_PM_CTRL;

    if (!s->pme) {
        return;
    }
    pci_word_test_and_set_mask(pmcsr, PCI_PM_CTRL_PME_STATUS);
    if ((pci_get_word(pmcsr) & PCI_PM_CTRL_PME_ENABLE) &&
        runstate_check(RUN_STATE_SUSPENDED)) {
        qemu_system_wakeup_request(QEMU_WAKEUP_REASON_OTHER, NULL);
    }
}

/*
 * MSI, 1 vector, 64-bit, no per-vector masking. A machine without working
 * MSI (-ENOTSUP) is not an error: the model then uses INTx.
 */
/*
 * The result of msi_init/msix_init: -ENOTSUP (a machine without working MSI)
 * is not an error, any other failure is reported through errp.
 */
static bool rtl8168_msi_init_result(int ret, Error *err, Error **errp)
{
    if (ret == -ENOTSUP) {
        error_free(err);
        return true;
    }
    if (ret) {
        error_propagate(errp, err);
        return false;
    }
    return true;
}

static bool rtl8168_add_msi_capability(PCIDevice *pdev, uint8_t off,
                                       Error **errp)
{
    Error *err = NULL;
    int ret = msi_init(pdev, off, 1, true, false, &err);

    return rtl8168_msi_init_result(ret, err, errp);
}

/*
 * MSI-X as the profile describes it (the RTL8125B: capability 0xb0, 32
 * entries, table and PBA in the 16 KiB BAR 4); none for the 8168 profiles,
 * whose configuration space stays as it was. Every entry is in use: the
 * model sends only vectors below the count. A machine without working MSI
 * (-ENOTSUP) is not an error: the function then has MSI or INTx only.
 */
static bool rtl8168_add_msix_capability(RTL8168State *s,
                                        const rtl8168_pci_identity *id,
                                        Error **errp)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    Error *err = NULL;
    int ret;

    if (!id->msix_vectors) {
        return true;
    }
    memory_region_init(&s->msix_bar, OBJECT(s), "rtl8168-msix",
                       id->msix_bar_size);
    pci_register_bar(pdev, id->msix_bar,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64, &s->msix_bar);
    ret = msix_init(pdev, id->msix_vectors, &s->msix_bar, id->msix_bar,
                    id->msix_table_offset, &s->msix_bar, id->msix_bar,
                    id->msix_pba_offset, id->msix_offset, &err);
    if (ret) {
        return rtl8168_msi_init_result(ret, err, errp);
    }
    for (unsigned i = 0; i < id->msix_vectors; i++) {
        msix_vector_use(pdev, i);
    }
    s->msix_vectors = id->msix_vectors;
    return true;
}

static void rtl8168_remove_msix_capability(RTL8168State *s)
{
    if (msix_present(PCI_DEVICE(s))) {
        msix_unuse_all_vectors(PCI_DEVICE(s));
        msix_uninit(PCI_DEVICE(s), &s->msix_bar, &s->msix_bar);
    }
    s->msix_vectors = 0;
}

static void rtl8168_realize(PCIDevice *pdev, Error **errp)
{
    RTL8168State *s = RTL8168(pdev);
    DeviceState *d = DEVICE(pdev);
    rtl8168_config *cfg = s->cfg;
    g_autofree char *mac = NULL;
    rtl8168_pci_identity id;
    char err[512];
    const rtl8168_host_ops ops = {
        .opaque = s,
        .dma_read = rtl8168_host_dma_read,
        .dma_write = rtl8168_host_dma_write,
        .msi_enabled = rtl8168_host_msi_enabled,
        .msi_notify = rtl8168_host_msi_notify,
        .set_intx = rtl8168_host_set_intx,
        .transmit = rtl8168_host_transmit,
        .timer_arm = rtl8168_host_timer_arm,
        .rx_ready = rtl8168_host_rx_ready,
        /*
         * Typed events: no formatting unless an event is enabled or a
         * guest error is logged, so it stays set (events can be enabled at
         * run time from the monitor); no text lines (.trace).
         */
        .trace_event = rtl8168_host_trace_event,
        .pme = rtl8168_host_pme,
    };
    const rtl8168_rx_order_ops rx_order_ops = {
        .opaque = s,
        .ready = rtl8168_rx_order_ready,
        .flush = rtl8168_rx_order_flush,
    };

    qemu_macaddr_default_if_unset(&s->conf.macaddr);
    mac = qemu_mac_strdup_printf(s->conf.macaddr.a);
    if (rtl8168_config_set(cfg, "mac", mac, err, sizeof(err))) {
        error_setg(errp, "rtl8168: %s", err);
        return;
    }

    rtl8168_config_pci_identity(cfg, &id);
    pdev->config_write = rtl8168_write_config;
    pci_config_set_vendor_id(pdev->config, id.vendor_id);
    pci_config_set_device_id(pdev->config, id.device_id);
    pci_config_set_revision(pdev->config, id.revision);
    pdev->config[PCI_INTERRUPT_PIN] = 1; /* INTA# */
    pci_set_word(pdev->config + PCI_SUBSYSTEM_VENDOR_ID,
                 id.subsystem_vendor_id);
    pci_set_word(pdev->config + PCI_SUBSYSTEM_ID, id.subsystem_id);

    if (!rtl8168_add_pm_capability(pdev, id.pm_offset, s->pme, errp)) {
        return;
    }
    if (!rtl8168_add_msi_capability(pdev, id.msi_offset, errp)) {
        return;
    }
    if (pcie_endpoint_cap_init(pdev, id.pcie_offset) < 0) {
        error_setg(errp, "rtl8168: cannot add the PCI Express capability");
        goto fail_msi;
    }
    rtl8168_apply_pcie_aspm(pdev, &id);
    s->config_to_model = id.aspm_control_writable;
    if (!rtl8168_add_msix_capability(s, &id, errp)) {
        pcie_cap_exit(pdev);
        goto fail_msi;
    }

    memory_region_init_io(&s->io, OBJECT(s), &rtl8168_reg_ops, s, "rtl8168-io",
                          RTL8168_IO_SIZE);
    pci_register_bar(pdev, RTL8168_IO_BAR, PCI_BASE_ADDRESS_SPACE_IO, &s->io);
    memory_region_init_io(&s->mmio, OBJECT(s), &rtl8168_reg_ops, s,
                          "rtl8168-mmio", id.mmio_size);
    pci_register_bar(pdev, RTL8168_MMIO_BAR,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64, &s->mmio);

    s->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, rtl8168_timer_cb, s);
    s->rx_order = rtl8168_rx_order_new(&rx_order_ops);
    s->nic = qemu_new_nic(&net_rtl8168_info, &s->conf,
                          object_get_typename(OBJECT(s)), d->id,
                          &d->mem_reentrancy_guard, s);
    qemu_format_nic_info_str(qemu_get_queue(s->nic), s->conf.macaddr.a);

    s->dev = rtl8168_create(cfg, &ops, err, sizeof(err));
    if (!s->dev) {
        error_setg(errp, "rtl8168: %s", err);
        qemu_del_nic(s->nic);
        rtl8168_rx_order_free(s->rx_order);
        s->rx_order = NULL;
        timer_free(s->timer);
        rtl8168_remove_msix_capability(s);
        pcie_cap_exit(pdev);
        goto fail_msi;
    }
    if (qemu_get_queue(s->nic)->link_down) {
        rtl8168_set_link(s->dev, rtl8168_now(), false);
    }
    trace_rtl8168_realize(rtl8168_chip_name(s->dev),
                          qemu_get_queue(s->nic)->info_str);
    return;

fail_msi:
    msi_uninit(pdev);
}

static void rtl8168_exit(PCIDevice *pdev)
{
    RTL8168State *s = RTL8168(pdev);

    rtl8168_destroy(s->dev);
    s->dev = NULL;
    timer_free(s->timer);
    qemu_del_nic(s->nic);
    rtl8168_rx_order_free(s->rx_order);
    s->rx_order = NULL;
    rtl8168_remove_msix_capability(s);
    pcie_cap_exit(pdev);
    msi_uninit(pdev);
}

static void rtl8168_reset_hold(Object *obj, ResetType type)
{
    RTL8168State *s = RTL8168(obj);

    rtl8168_model_begin(s);
    rtl8168_reset(s->dev, rtl8168_now());
    rtl8168_model_done(s);
}

/* ---- vmstate ----------------------------------------------------------- */

static int rtl8168_pre_save(void *opaque)
{
    RTL8168State *s = RTL8168(opaque);
    size_t len = rtl8168_state_size(s->dev);

    g_free(s->state);
    s->state = g_malloc(len);
    s->state_len = rtl8168_state_save(s->dev, s->state, len);
    return s->state_len ? 0 : -1;
}

static int rtl8168_post_save(void *opaque)
{
    RTL8168State *s = RTL8168(opaque);

    g_clear_pointer(&s->state, g_free);
    s->state_len = 0;
    return 0;
}

static bool rtl8168_state_len_valid(void *opaque, int version_id)
{
    uint32_t len = RTL8168(opaque)->state_len;

    return len > 0 && len <= RTL8168_STATE_MAX;
}

/* The model re-arms its timer and re-drives INTx; it raises no interrupt. */
static int rtl8168_post_load(void *opaque, int version_id)
{
    RTL8168State *s = RTL8168(opaque);
    char err[512];
    int ret = rtl8168_state_load(s->dev, s->state, s->state_len, err,
                                 sizeof(err));

    if (ret) {
        error_report("rtl8168: cannot load device state: %s", err);
    }
    g_clear_pointer(&s->state, g_free);
    s->state_len = 0;
    return ret ? -EINVAL : 0;
}

/* The MSI-X table and PBA, for profiles that have MSI-X only (the 8168
 * profiles' migration stream is unchanged). */
static bool rtl8168_msix_needed(void *opaque)
{
    return msix_present(PCI_DEVICE(opaque));
}

static const VMStateDescription rtl8168_vmstate_msix = {
    .name = "rtl8168/msix",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = rtl8168_msix_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_MSIX(parent_obj, RTL8168State),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription rtl8168_vmstate = {
    .name = "rtl8168",
    .version_id = 1,
    .minimum_version_id = 1,
    .pre_save = rtl8168_pre_save,
    .post_save = rtl8168_post_save,
    .post_load = rtl8168_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, RTL8168State), /* incl. MSI, PCIe */
        VMSTATE_UINT32(state_len, RTL8168State),
        VMSTATE_VALIDATE("rtl8168 state size", rtl8168_state_len_valid),
        VMSTATE_VBUFFER_ALLOC_UINT32(state, RTL8168State, 1, NULL, state_len),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &rtl8168_vmstate_msix,
        NULL
    }
};

/* ---- QOM --------------------------------------------------------------- */

static const Property rtl8168_properties[] = {
    DEFINE_NIC_PROPERTIES(RTL8168State, conf),
    DEFINE_PROP_BOOL("x-pme", RTL8168State, pme, false),
};

static void rtl8168_instance_init(Object *obj)
{
    RTL8168(obj)->cfg = rtl8168_config_new_any_order();
}

static void rtl8168_instance_finalize(Object *obj)
{
    RTL8168State *s = RTL8168(obj);

    rtl8168_config_free(s->cfg);
    g_free(s->state);
}

/*
 * Read-only observability for determinism checks (docs/REPRODUCE.md): the
 * model's trace hash and event count, e.g. "qom-get /machine/peripheral/nic0
 * x-trace-hash" on the monitor. Reading them changes nothing in the model.
 */
static void rtl8168_trace_hash_get(Object *obj, Visitor *v, const char *name,
                                   void *opaque, Error **errp)
{
    RTL8168State *s = RTL8168(obj);
    g_autofree char *value = g_strdup_printf(
        "0x%016" PRIx64, s->dev ? rtl8168_trace_hash(s->dev) : 0);

    visit_type_str(v, name, &value, errp);
}

static void rtl8168_trace_events_get(Object *obj, Visitor *v, const char *name,
                                     void *opaque, Error **errp)
{
    RTL8168State *s = RTL8168(obj);
    uint64_t value = s->dev ? rtl8168_trace_events(s->dev) : 0;

    visit_type_uint64(v, name, &value, errp);
}

/*
 * ---- fault injection at run time (docs/FAULTS.md "QEMU") -----------------
 *
 * The model's fault API as QOM properties of the running device, so QMP and
 * HMP reach it with the generic qom-set/qom-get (no QAPI schema of our own):
 *   qom-set nic0 fault-add 'rx-withhold:count=20'   rtl8168_fault_add at the
 *                              current QEMU_CLOCK_VIRTUAL time; a refused spec
 *                              is the command's error (the model's message)
 *   qom-set nic0 fault-clear true                  rtl8168_fault_clear
 *   qom-get nic0 fault-list                        rtl8168_fault_list (JSON)
 *   qom-get nic0 x-stats                           rtl8168_stats_json
 * A system reset drops what was added here and re-installs the `faults`
 * property's schedule (rtl8168_reset). Adding a fault is a model call like a
 * register access (a fault due now fires inside it), so it is bracketed the
 * same way.
 */
static bool rtl8168_fault_ready(RTL8168State *s, const char *name,
                                Error **errp)
{
    if (!s->dev) {
        error_setg(errp, "rtl8168: '%s' needs a running device (a start-up "
                   "schedule is the 'faults' property)", name);
        return false;
    }
    return true;
}

static void rtl8168_fault_add_set(Object *obj, Visitor *v, const char *name,
                                  void *opaque, Error **errp)
{
    RTL8168State *s = RTL8168(obj);
    g_autofree char *spec = NULL;
    char err[512];
    int ret;

    if (!visit_type_str(v, name, &spec, errp) ||
        !rtl8168_fault_ready(s, name, errp)) {
        return;
    }
    rtl8168_model_begin(s);
    ret = rtl8168_fault_add(s->dev, rtl8168_now(), spec, err, sizeof(err));
    rtl8168_model_done(s);
    if (ret) {
        error_setg(errp, "rtl8168: %s", err);
    }
}

static void rtl8168_fault_clear_set(Object *obj, Visitor *v, const char *name,
                                    void *opaque, Error **errp)
{
    RTL8168State *s = RTL8168(obj);
    bool clear;

    if (!visit_type_bool(v, name, &clear, errp) ||
        !rtl8168_fault_ready(s, name, errp) || !clear) {
        return;
    }
    rtl8168_model_begin(s);
    rtl8168_fault_clear(s->dev, rtl8168_now());
    rtl8168_model_done(s);
}

static void rtl8168_fault_list_get(Object *obj, Visitor *v, const char *name,
                                   void *opaque, Error **errp)
{
    RTL8168State *s = RTL8168(obj);
    g_autofree char *json = NULL;
    size_t len;

    if (!rtl8168_fault_ready(s, name, errp)) {
        return;
    }
    len = rtl8168_fault_list(s->dev, NULL, 0);
    json = g_malloc(len + 1);
    rtl8168_fault_list(s->dev, json, len + 1);
    visit_type_str(v, name, &json, errp);
}

/* The model's counters as one JSON object (drops by reason, faults fired). */
static void rtl8168_stats_get(Object *obj, Visitor *v, const char *name,
                              void *opaque, Error **errp)
{
    RTL8168State *s = RTL8168(obj);
    g_autofree char *json = NULL;
    size_t len;

    len = rtl8168_stats_json(s->dev, NULL, 0);
    json = g_malloc(len + 1);
    rtl8168_stats_json(s->dev, json, len + 1);
    visit_type_str(v, name, &json, errp);
}

static void rtl8168_class_add_faults(ObjectClass *klass)
{
    object_class_property_add(klass, "fault-add", "str", NULL,
                              rtl8168_fault_add_set, NULL, NULL);
    object_class_property_set_description(klass, "fault-add",
        "write-only, running device: add faults to the schedule now "
        "(qom-set; spec syntax: docs/FAULTS.md)");
    object_class_property_add(klass, "fault-clear", "bool", NULL,
                              rtl8168_fault_clear_set, NULL, NULL);
    object_class_property_set_description(klass, "fault-clear",
        "write-only, running device: true drops every fault (qom-set)");
    object_class_property_add(klass, "fault-list", "str",
                              rtl8168_fault_list_get, NULL, NULL, NULL);
    object_class_property_set_description(klass, "fault-list",
        "read-only: the fault schedule and its counters as JSON (qom-get)");
    object_class_property_add(klass, "x-stats", "str", rtl8168_stats_get,
                              NULL, NULL, NULL);
    object_class_property_set_description(klass, "x-stats",
        "read-only: the model's counters (drops by reason) as JSON");
}

/* QEMU 10.1 made class_init's data const (QOM's TypeInfo.class_data) */
#if QEMU_VERSION_MAJOR > 10 || (QEMU_VERSION_MAJOR == 10 && QEMU_VERSION_MINOR >= 1)
#define RTL8168_CLASS_DATA const void
#else
#define RTL8168_CLASS_DATA void
#endif

static void rtl8168_class_init(ObjectClass *klass, RTL8168_CLASS_DATA *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);
    rtl8168_config *defaults = rtl8168_config_new();
    rtl8168_pci_identity id = { 0 };

    k->realize = rtl8168_realize;
    k->exit = rtl8168_exit;
    rtl8168_config_pci_identity(defaults, &id);
    rtl8168_config_free(defaults);
    k->vendor_id = id.vendor_id;
    k->device_id = id.device_id; /* realize sets the chosen chip's */
    k->class_id = PCI_CLASS_NETWORK_ETHERNET;
    k->romfile = "";

    rc->phases.hold = rtl8168_reset_hold;

    dc->desc = "Realtek RTL8168 PCIe Gigabit Ethernet (rtl8168-sim model)";
    dc->vmsd = &rtl8168_vmstate;
    device_class_set_props(dc, rtl8168_properties);
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);

    rtl8168_class_add_params(klass);
    object_class_property_add(klass, "x-trace-hash", "str",
                              rtl8168_trace_hash_get, NULL, NULL, NULL);
    object_class_property_set_description(klass, "x-trace-hash",
        "read-only: hash of every model trace event since reset");
    object_class_property_add(klass, "x-trace-events", "uint64",
                              rtl8168_trace_events_get, NULL, NULL, NULL);
    object_class_property_set_description(klass, "x-trace-events",
        "read-only: number of model trace events since reset");
    rtl8168_class_add_faults(klass);
}

static const TypeInfo rtl8168_type_info = {
    .name = TYPE_RTL8168,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(RTL8168State),
    .instance_init = rtl8168_instance_init,
    .instance_finalize = rtl8168_instance_finalize,
    .class_init = rtl8168_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_PCIE_DEVICE },
        { }
    },
};

static void rtl8168_register_types(void)
{
    type_register_static(&rtl8168_type_info);
}

type_init(rtl8168_register_types)
