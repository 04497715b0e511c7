/*
 * QTest testcase for the RTL8168 PCIe gigabit NIC (rtl8168-sim)
 *
 * Drives -device rtl8168 the way a driver does, through libqos' PCI helpers
 * on q35: PCI identity and BARs per chip profile, reset values, register
 * semantics, one frame each way through a -netdev socket backend (a
 * socketpair, as e1000e-test and virtio-net-test do), MSI and INTx, the chip
 * timer, migration of a device with a frame in flight, and fault injection
 * through QOM properties (qom-set/qom-get over QMP and HMP).
 *
 * Copyright (c) 2026 rtl8168-sim developers
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * This work is licensed under the terms of the GNU GPL, version 2 or later.
 * See the COPYING file in the top-level directory.
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "libqos/pci-pc.h"
#include "libqos/malloc-pc.h"
#include "qobject/qdict.h"
#include "qobject/qlist.h"
#include "qobject/qjson.h"
#include "qapi/error.h"
#include "hw/pci/pci_regs.h"
#include "qemu/bswap.h"

#define RTL_SLOT 4
#define RTL_DEVFN QPCI_DEVFN(RTL_SLOT, 0)
#define RTL_MAC "52:54:00:12:34:56"
static const uint8_t rtl_mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
static const uint8_t peer_mac[6] = { 0x52, 0x54, 0x00, 0xaa, 0xbb, 0xcc };

/* Registers (names as in Linux r8169_main.c) */
enum {
    MAC0 = 0x00, MAC4 = 0x04, TxDescStartAddrLow = 0x20,
    TxDescStartAddrHigh = 0x24, ChipCmd = 0x37, TxPoll = 0x38,
    IntrMask = 0x3c, IntrStatus = 0x3e, TxConfig = 0x40, RxConfig = 0x44,
    TCTR = 0x48, Cfg9346 = 0x50, Config1 = 0x52, TimerInt = 0x58,
    PHYAR = 0x60, PHYstatus = 0x6c, RxMaxSize = 0xda, CPlusCmd = 0xe0,
    RxDescAddrLow = 0xe4, RxDescAddrHigh = 0xe8,
};
enum { CmdReset = 0x10, CmdRxEnb = 0x08, CmdTxEnb = 0x04, RxBufEmpty = 0x01 };
enum { NPQ = 0x40, FSWInt = 0x01 };
enum {
    PCSTimeout = 0x4000, SWInt = 0x0100, LinkChg = 0x0020, TxOK = 0x0004,
    RxOK = 0x0001,
};
enum { Cfg9346_Lock = 0x00, Cfg9346_Unlock = 0xc0 };
enum { LinkStatus = 0x02, FullDup = 0x01, _1000bpsF = 0x10 };
enum { AcceptBroadcast = 0x08, AcceptMyPhys = 0x02 };
#define PHYAR_FLAG 0x80000000u

/* Descriptors: opts1, opts2, addr (little-endian, 16 bytes) */
#define DescOwn (1u << 31)
#define RingEnd (1u << 30)
#define FirstFrag (1u << 29)
#define LastFrag (1u << 28)
#define RxBAR (1u << 25)

typedef struct Chip {
    const char *id;
    uint32_t txconfig;  /* read at reset: XID in bits 31:20, TXCFG_EMPTY */
    uint8_t revision;
    uint16_t phy_id2;
    bool aspm_l1;       /* the profile models ASPM L1 (Link Control writable) */
    uint16_t device_id, subsystem_id;
    uint64_t mmio_size; /* BAR2 */
} Chip;

static const Chip chips[] = {
    { "8168c", 0x3c400000, 0x02, 0xc912, false, 0x8168, 0x8168, 4096 },
    /* bit 11: TX FIFO empty */
    { "8168evl", 0x2c800800, 0x06, 0xc800, false, 0x8168, 0x8168, 4096 },
    /* VER_46 (XID 0x541) */
    { "8168h", 0x54100800, 0x15, 0xc800, true, 0x8168, 0x8168, 4096 },
};

/*
 * The RTL8125B (VER_63, XID 0x641) has its own cases below: its interrupt
 * registers, doorbell and BAR differ from the 8168s' the generic cases use.
 * BAR2 is 64 KiB: its registers fill it.
 */
static const Chip chip_8125b = {
    "8125b", 0x64100800, 0x05, 0xc840, false, 0x8125, 0x0123, 0x10000,
};
enum {
    IntrMask_8125 = 0x38, IntrStatus_8125 = 0x3c, TxPoll_8125 = 0x90,
    MAC0_BKP = 0x19e0, RSS_CTRL_8125 = 0x4500, Q_NUM_CTRL_8125 = 0x4800,
};

typedef struct Rtl {
    QTestState *qts;
    QGuestAllocator alloc;
    QPCIBus *bus;
    QPCIDevice *dev;
    QPCIBar io, mmio;
    uint64_t io_size, mmio_size;
    int sock;           /* our end of the backend's socketpair */
    int64_t now;        /* QEMU_CLOCK_VIRTUAL after the last step */
} Rtl;

static void rtl_attach(Rtl *r)
{
    pc_alloc_init(&r->alloc, r->qts, ALLOC_NO_FLAGS);
    r->bus = qpci_new_pc(r->qts, &r->alloc);
    r->dev = qpci_device_find(r->bus, RTL_DEVFN);
    g_assert_nonnull(r->dev);
    qpci_device_enable(r->dev);
    r->io = qpci_iomap(r->dev, 0, &r->io_size);
    r->mmio = qpci_iomap(r->dev, 2, &r->mmio_size);
}

/*
 * q35, the NIC at 00:04.0 on a socket backend; extra device properties
 * after the chip (e.g. ",timing=on"), extra QEMU arguments after that.
 */
static void rtl_start_full(Rtl *r, const Chip *chip, const char *props,
                           const char *args)
{
    int sv[2];

    memset(r, 0, sizeof(*r));
    g_assert_cmpint(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), ==, 0);
    r->qts = qtest_initf("-M q35 -nodefaults "
                         "-netdev socket,id=hs0,fd=%d "
                         "-device rtl8168,id=nic0,addr=%02x.0,netdev=hs0,"
                         "mac=" RTL_MAC ",chip=%s%s %s",
                         sv[1], RTL_SLOT, chip->id, props ? props : "",
                         args ? args : "");
    close(sv[1]);
    r->sock = sv[0];
    rtl_attach(r);
}

static void rtl_start(Rtl *r, const Chip *chip, const char *props)
{
    rtl_start_full(r, chip, props, NULL);
}

static void rtl_stop(Rtl *r)
{
    g_free(r->dev);
    qpci_free_pc(r->bus);
    alloc_destroy(&r->alloc);
    qtest_quit(r->qts);
    close(r->sock);
}

static uint8_t rd8(Rtl *r, int off)
{
    return qpci_io_readb(r->dev, r->mmio, off);
}

static uint16_t rd16(Rtl *r, int off)
{
    return qpci_io_readw(r->dev, r->mmio, off);
}

static uint32_t rd32(Rtl *r, int off)
{
    return qpci_io_readl(r->dev, r->mmio, off);
}

static void wr8(Rtl *r, int off, uint8_t v)
{
    qpci_io_writeb(r->dev, r->mmio, off, v);
}

static void wr16(Rtl *r, int off, uint16_t v)
{
    qpci_io_writew(r->dev, r->mmio, off, v);
}

static void wr32(Rtl *r, int off, uint32_t v)
{
    qpci_io_writel(r->dev, r->mmio, off, v);
}

static void step(Rtl *r, int64_t ns)
{
    r->now = qtest_clock_step(r->qts, ns);
}

/* Autonegotiation completes on its own after a reset (phy-an-time 0.5 s). */
static void wait_link(Rtl *r)
{
    step(r, 1000 * 1000 * 1000);
    g_assert_cmphex(rd8(r, PHYstatus) & (LinkStatus | FullDup | _1000bpsF),
                    ==, LinkStatus | FullDup | _1000bpsF);
}

/* A 256-byte aligned block of guest memory (descriptor rings need it). */
static uint64_t alloc_aligned(Rtl *r, size_t len)
{
    uint64_t a = guest_alloc(&r->alloc, len + 256);

    qtest_memset(r->qts, a, 0, len + 256);
    return (a + 255) & ~(uint64_t)255;
}

static void write_desc(Rtl *r, uint64_t at, uint32_t opts1, uint32_t opts2,
                       uint64_t buf)
{
    qtest_writel(r->qts, at + 4, opts2);
    qtest_writeq(r->qts, at + 8, buf);
    qtest_writel(r->qts, at, opts1);    /* Own last */
}

static void build_frame(uint8_t *f, size_t len, const uint8_t *dst,
                        const uint8_t *src, uint8_t seed)
{
    size_t i;

    memcpy(f, dst, 6);
    memcpy(f + 6, src, 6);
    f[12] = 0x88;   /* local experimental ethertype */
    f[13] = 0xb5;
    for (i = 14; i < len; i++) {
        f[i] = (uint8_t)(seed + i * 7);
    }
}

/* Read exactly len bytes from the backend socket, or fail after 10 s. */
static void sock_read_all(int fd, void *buf, size_t len)
{
    size_t got = 0;

    while (got < len) {
        GPollFD p = { .fd = fd, .events = G_IO_IN };
        ssize_t n;

        g_assert_cmpint(g_poll(&p, 1, 10000), ==, 1);
        n = recv(fd, (uint8_t *)buf + got, len - got, 0);
        g_assert_cmpint(n, >, 0);
        got += n;
    }
}

static bool sock_has_data(int fd)
{
    GPollFD p = { .fd = fd, .events = G_IO_IN };

    return g_poll(&p, 1, 0) == 1;
}

/* -netdev socket stream framing: a 32-bit big-endian length, the frame. */
static void sock_send_frame(int fd, const uint8_t *f, size_t len)
{
    uint32_t be = htonl(len);

    g_assert_cmpint(send(fd, &be, 4, 0), ==, 4);
    g_assert_cmpint(send(fd, f, len, 0), ==, (ssize_t)len);
}

/*
 * The next frame on the backend that is not a RARP: after a migration QEMU
 * announces the destination's NICs itself (qemu_announce_self, 60 bytes,
 * ethertype 0x8035), on the same backend.
 */
static void sock_recv_frame(int fd, uint8_t *f, size_t len)
{
    uint8_t buf[2048];
    uint32_t be, n;

    for (;;) {
        sock_read_all(fd, &be, 4);
        n = ntohl(be);
        g_assert_cmpuint(n, <=, sizeof(buf));
        sock_read_all(fd, buf, n);
        if (n >= 14 && buf[12] == 0x80 && buf[13] == 0x35) {
            continue;
        }
        g_assert_cmpuint(n, ==, len);
        memcpy(f, buf, len);
        return;
    }
}

/*
 * MSI to a word of guest RAM the test reads back: the message address and
 * data in the capability (64-bit), then its enable bit. Returns the word's
 * address (cleared).
 */
static uint64_t msi_to_ram(Rtl *r, uint16_t data)
{
    uint8_t cap = qpci_find_capability(r->dev, PCI_CAP_ID_MSI, 0);
    uint64_t msg = guest_alloc(&r->alloc, 4);

    g_assert_cmphex(cap, !=, 0);
    qtest_writel(r->qts, msg, 0);
    qpci_config_writel(r->dev, cap + PCI_MSI_ADDRESS_LO, (uint32_t)msg);
    qpci_config_writel(r->dev, cap + PCI_MSI_ADDRESS_HI, msg >> 32);
    qpci_config_writew(r->dev, cap + PCI_MSI_DATA_64, data);
    qpci_config_writew(r->dev, cap + PCI_MSI_FLAGS,
                       qpci_config_readw(r->dev, cap + PCI_MSI_FLAGS) |
                       PCI_MSI_FLAGS_ENABLE);
    return msg;
}

/* ---- PCI identity and BARs ---------------------------------------------- */

/*
 * The chip's PCI identity (Realtek vendor and subsystem vendor, device,
 * subsystem and revision from the chip list), BAR0 256 bytes of I/O and
 * BAR2 the chip's register window as libqos mapped them, and TxConfig's
 * reset value (its XID) through both BARs: they decode the same registers.
 */
static void check_identity(Rtl *r, const Chip *chip)
{
    g_assert_cmphex(qpci_config_readw(r->dev, PCI_VENDOR_ID), ==, 0x10ec);
    g_assert_cmphex(qpci_config_readw(r->dev, PCI_DEVICE_ID), ==,
                    chip->device_id);
    g_assert_cmphex(qpci_config_readb(r->dev, PCI_REVISION_ID), ==,
                    chip->revision);
    g_assert_cmphex(qpci_config_readw(r->dev, PCI_SUBSYSTEM_VENDOR_ID), ==,
                    0x10ec);
    g_assert_cmphex(qpci_config_readw(r->dev, PCI_SUBSYSTEM_ID), ==,
                    chip->subsystem_id);
    g_assert_cmpuint(r->io_size, ==, 256);
    g_assert_cmpuint(r->mmio_size, ==, chip->mmio_size);
    g_assert_cmphex(qpci_io_readl(r->dev, r->io, TxConfig), ==, chip->txconfig);
    g_assert_cmphex(rd32(r, TxConfig), ==, chip->txconfig);
}

static void test_pci(const void *data)
{
    const Chip *chip = data;
    Rtl r;
    uint32_t bar;

    rtl_start(&r, chip, NULL);
    check_identity(&r, chip);
    g_assert_cmphex(qpci_config_readw(r.dev, PCI_CLASS_DEVICE), ==, 0x0200);
    g_assert_cmphex(qpci_config_readb(r.dev, PCI_INTERRUPT_PIN), ==, 1);

    /* BAR0 I/O, BAR2 64-bit memory; no others */
    bar = qpci_config_readl(r.dev, PCI_BASE_ADDRESS_0);
    g_assert_cmphex(bar & PCI_BASE_ADDRESS_SPACE, ==, PCI_BASE_ADDRESS_SPACE_IO);
    g_assert_cmphex(qpci_config_readl(r.dev, PCI_BASE_ADDRESS_1), ==, 0);
    bar = qpci_config_readl(r.dev, PCI_BASE_ADDRESS_2);
    g_assert_cmphex(bar & (PCI_BASE_ADDRESS_SPACE |
                           PCI_BASE_ADDRESS_MEM_TYPE_MASK), ==,
                    PCI_BASE_ADDRESS_SPACE_MEMORY |
                    PCI_BASE_ADDRESS_MEM_TYPE_64);
    g_assert_cmphex(qpci_config_readl(r.dev, PCI_BASE_ADDRESS_4), ==, 0);
    g_assert_cmphex(qpci_config_readl(r.dev, PCI_BASE_ADDRESS_5), ==, 0);

    /* Capabilities: PM at 0x40, MSI (64-bit, 1 vector) at 0x50, PCIe 0x70 */
    g_assert_cmphex(qpci_find_capability(r.dev, PCI_CAP_ID_PM, 0), ==, 0x40);
    g_assert_cmphex(qpci_find_capability(r.dev, PCI_CAP_ID_MSI, 0), ==, 0x50);
    g_assert_cmphex(qpci_find_capability(r.dev, PCI_CAP_ID_EXP, 0), ==, 0x70);
    g_assert_cmphex(qpci_config_readw(r.dev, 0x50 + PCI_MSI_FLAGS) &
                    (PCI_MSI_FLAGS_64BIT | PCI_MSI_FLAGS_QMASK |
                     PCI_MSI_FLAGS_ENABLE), ==, PCI_MSI_FLAGS_64BIT);
    g_assert_cmpuint(qpci_find_capability(r.dev, PCI_CAP_ID_MSIX, 0), ==, 0);
    rtl_stop(&r);
}

/* ---- properties -------------------------------------------------------------- */

static const char *prop_type(QTestState *qts, const char *name)
{
    static char type[32];
    QDict *rsp = qtest_qmp(qts, "{'execute': 'device-list-properties',"
                           " 'arguments': {'typename': 'rtl8168'}}");
    QList *list = qdict_get_qlist(rsp, "return");
    const QListEntry *e;

    type[0] = 0;
    for (e = qlist_first(list); e; e = qlist_next(e)) {
        QDict *p = qobject_to(QDict, qlist_entry_obj(e));

        if (!strcmp(qdict_get_str(p, "name"), name)) {
            g_strlcpy(type, qdict_get_str(p, "type"), sizeof(type));
        }
    }
    qobject_unref(rsp);
    return type;
}

/* qom-get of nic0's property: the QMP response (its "return"). */
static QDict *qom_get(QTestState *qts, const char *prop)
{
    return qtest_qmp(qts, "{'execute': 'qom-get', 'arguments': {'path': 'nic0',"
                     " 'property': %s}}", prop);
}

static int64_t qom_get_int(QTestState *qts, const char *prop)
{
    QDict *rsp = qom_get(qts, prop);
    int64_t v = qdict_get_int(rsp, "return");

    qobject_unref(rsp);
    return v;
}

/*
 * Model parameters are typed properties; the ones not given follow the chip,
 * a given one keeps its value though QEMU sets it before the chip (a -global
 * is applied before the -device's own properties).
 */
static void test_properties(const void *data)
{
    const Chip *chip = data;
    bool evl = !strcmp(chip->id, "8168evl");
    Rtl r;
    QDict *rsp;

    rtl_start_full(&r, chip, NULL, "-global rtl8168.rx-fifo-size=4096");
    g_assert_cmpstr(prop_type(r.qts, "timing"), ==, "bool");
    g_assert_cmpstr(prop_type(r.qts, "lossy-txpoll"), ==, "bool");
    g_assert_cmpstr(prop_type(r.qts, "pcie-read-latency"), ==, "uint64");
    g_assert_cmpstr(prop_type(r.qts, "phy-an-time"), ==, "uint64");
    g_assert_cmpstr(prop_type(r.qts, "chip"), ==, "str");
    g_assert_cmpstr(prop_type(r.qts, "tx-mxdma"), ==, "str");

    rsp = qom_get(r.qts, "chip");
    g_assert_cmpstr(qdict_get_str(rsp, "return"), ==, chip->id);
    qobject_unref(rsp);
    rsp = qom_get(r.qts, "evl-short-csum");
    g_assert_cmpint(qdict_get_bool(rsp, "return"), ==, evl);
    qobject_unref(rsp);
    g_assert_cmpint(qom_get_int(r.qts, "timer-clock"), ==, 125);
    g_assert_cmpint(qom_get_int(r.qts, "rx-fifo-size"), ==, 4096);

    /* A parameter cannot change under a running device. */
    rsp = qtest_qmp(r.qts, "{'execute': 'qom-set', 'arguments': {'path': 'nic0',"
                    " 'property': 'rx-fifo-size', 'value': 8192}}");
    g_assert(strstr(qdict_get_str(qdict_get_qdict(rsp, "error"), "desc"),
                    "cannot be changed after the device is realized"));
    qobject_unref(rsp);
    g_assert_cmpint(qom_get_int(r.qts, "rx-fifo-size"), ==, 4096);

    /* The model's trace hash and event count (run-lab's determinism checks) */
    g_assert_cmpint(qom_get_int(r.qts, "x-trace-events"), >, 0);
    rsp = qom_get(r.qts, "x-trace-hash");
    g_assert_cmpint(strlen(qdict_get_str(rsp, "return")), ==, 18);
    g_assert(g_str_has_prefix(qdict_get_str(rsp, "return"), "0x"));
    g_assert_cmpstr(qdict_get_str(rsp, "return"), !=, "0x0000000000000000");
    qobject_unref(rsp);
    rtl_stop(&r);

    /* x-pme=on: PME# from D0 and D3hot, PME_Enable writable */
    rtl_start(&r, chip, ",x-pme=on");
    g_assert_cmphex(qpci_config_readw(r.dev, 0x40 + PCI_PM_PMC) &
                    (PCI_PM_CAP_PME_D0 | PCI_PM_CAP_PME_D3hot), ==,
                    PCI_PM_CAP_PME_D0 | PCI_PM_CAP_PME_D3hot);
    qpci_config_writew(r.dev, 0x40 + PCI_PM_CTRL, PCI_PM_CTRL_PME_ENABLE);
    g_assert_cmphex(qpci_config_readw(r.dev, 0x40 + PCI_PM_CTRL) &
                    PCI_PM_CTRL_PME_ENABLE, ==, PCI_PM_CTRL_PME_ENABLE);
    rtl_stop(&r);
}

/*
 * A property the model refuses stops QEMU at start-up with the model's message
 * and exit status 1, whether QEMU or the model parses it, or the model only
 * refuses the combination when it creates the device (realize).
 */
static void bad_start(const Chip *chip, const char *props, const char *want)
{
    g_autofree char *cmd = g_strdup_printf(
        "%s -M q35 -nodefaults -display none -accel qtest "
        "-device rtl8168,chip=%s,%s", g_getenv("QTEST_QEMU_BINARY"), chip->id,
        props);
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;
    int status;

    g_assert(g_spawn_command_line_sync(cmd, &out, &err, &status, NULL));
    g_assert(WIFEXITED(status));
    g_assert_cmpint(WEXITSTATUS(status), ==, 1);
    if (!strstr(err, want)) {
        g_error("'%s': expected '%s' in: %s", props, want, err);
    }
}

static void test_bad_properties(const void *data)
{
    const Chip *chip = data;

    bad_start(chip, "timing=maybe", "'timing' expects");
    bad_start(chip, "rx-fifo-size=big", "'rx-fifo-size' expects");
    bad_start(chip, "rx-fifo-size=100",
              "rtl8168: rx-fifo-size: expects an integer in [2048, 1048576]");
    bad_start(chip, "faults=bogus", "unknown fault class 'bogus'");
    bad_start(chip, "tx-fifo-size=2048", "rtl8168: tx-fifo-size must hold");
}

/* ---- reset values ----------------------------------------------------------- */

static void test_reset_values(const void *data)
{
    const Chip *chip = data;
    Rtl r;
    int i;

    rtl_start(&r, chip, NULL);
    for (i = 0; i < 6; i++) {
        g_assert_cmphex(rd8(&r, MAC0 + i), ==, rtl_mac[i]);
    }
    g_assert_cmphex(rd32(&r, TxConfig), ==, chip->txconfig);
    g_assert_cmphex(rd8(&r, ChipCmd), ==, RxBufEmpty);
    g_assert_cmphex(rd16(&r, IntrMask), ==, 0);
    g_assert_cmphex(rd16(&r, IntrStatus), ==, 0);
    g_assert_cmphex(rd8(&r, Cfg9346), ==, 0);
    g_assert_cmphex(rd8(&r, TxPoll), ==, 0);
    g_assert_cmphex(rd32(&r, TimerInt), ==, 0);
    g_assert_cmphex(rd32(&r, RxDescAddrLow), ==, 0);
    g_assert_cmphex(rd32(&r, TxDescStartAddrLow), ==, 0);
    /* The link is down until autonegotiation completes, then LinkChg */
    g_assert_cmphex(rd8(&r, PHYstatus) & LinkStatus, ==, 0);
    wait_link(&r);
    g_assert_cmphex(rd16(&r, IntrStatus) & LinkChg, ==, LinkChg);

    /*
     * A software reset (ChipCmd) self-clears and stops both engines; other
     * registers survive it (r8169 rtl_hw_reset polls rtl_chipcmd_cond)
     */
    wr16(&r, IntrMask, LinkChg);
    wr8(&r, ChipCmd, CmdTxEnb | CmdRxEnb);
    g_assert_cmphex(rd8(&r, ChipCmd), ==, CmdTxEnb | CmdRxEnb | RxBufEmpty);
    wr8(&r, ChipCmd, CmdReset);
    step(&r, 10 * 1000 * 1000);
    g_assert_cmphex(rd8(&r, ChipCmd), ==, RxBufEmpty);
    g_assert_cmphex(rd16(&r, IntrMask), ==, LinkChg);

    /* A system reset brings back the power-on values, link down */
    wr32(&r, TimerInt, 1234);
    qtest_system_reset(r.qts);
    g_assert_cmphex(rd32(&r, TimerInt), ==, 0);
    g_assert_cmphex(rd8(&r, PHYstatus) & LinkStatus, ==, 0);
    rtl_stop(&r);
}

/* ---- register semantics -------------------------------------------------- */

static void test_intrstatus_w1c(const void *data)
{
    Rtl r;

    rtl_start(&r, data, NULL);
    wr16(&r, IntrStatus, 0xffff);               /* nothing latched yet */
    g_assert_cmphex(rd16(&r, IntrStatus), ==, 0);
    wr8(&r, TxPoll, FSWInt);                    /* software interrupt */
    g_assert_cmphex(rd16(&r, IntrStatus), ==, SWInt);
    wr16(&r, IntrStatus, 0);                    /* writing 0 keeps it */
    g_assert_cmphex(rd16(&r, IntrStatus), ==, SWInt);
    wr16(&r, IntrStatus, 0xffff & ~SWInt);      /* other bits: no effect */
    g_assert_cmphex(rd16(&r, IntrStatus), ==, SWInt);
    wr16(&r, IntrStatus, SWInt);                /* 1 clears */
    g_assert_cmphex(rd16(&r, IntrStatus), ==, 0);
    rtl_stop(&r);
}

static void test_cfg9346_lock(const void *data)
{
    Rtl r;
    uint8_t c1;

    rtl_start(&r, data, NULL);
    /* Locked: the station address and Config1-5 ignore writes */
    wr32(&r, MAC0, 0x04030201);
    g_assert_cmphex(rd32(&r, MAC0), ==, 0x12005452);
    c1 = rd8(&r, Config1);
    wr8(&r, Config1, c1 ^ 0x10);
    g_assert_cmphex(rd8(&r, Config1), ==, c1);

    wr8(&r, Cfg9346, Cfg9346_Unlock);
    g_assert_cmphex(rd8(&r, Cfg9346), ==, Cfg9346_Unlock);
    wr32(&r, MAC0, 0x04030201);
    wr16(&r, MAC4, 0x0605);
    wr8(&r, Config1, c1 ^ 0x10);
    g_assert_cmphex(rd32(&r, MAC0), ==, 0x04030201);
    g_assert_cmphex(rd16(&r, MAC4), ==, 0x0605);
    g_assert_cmphex(rd8(&r, Config1), ==, c1 ^ 0x10);

    wr8(&r, Cfg9346, Cfg9346_Lock);
    wr32(&r, MAC0, 0xffffffff);
    g_assert_cmphex(rd32(&r, MAC0), ==, 0x04030201);
    rtl_stop(&r);
}

/* NPQ reads back set for txpoll-ack-time (90 ns) after the doorbell. */
static void test_txpoll_readback(const void *data)
{
    Rtl r;

    rtl_start(&r, data, ",timing=on");
    g_assert_cmphex(rd8(&r, TxPoll), ==, 0);
    wr8(&r, TxPoll, NPQ);
    g_assert_cmphex(rd8(&r, TxPoll), ==, NPQ);
    step(&r, 89);
    g_assert_cmphex(rd8(&r, TxPoll), ==, NPQ);
    step(&r, 1);
    g_assert_cmphex(rd8(&r, TxPoll), ==, 0);
    rtl_stop(&r);
}

static uint32_t phyar_access(Rtl *r, uint32_t cmd)
{
    uint32_t want = cmd & PHYAR_FLAG ? 0 : PHYAR_FLAG;
    uint32_t v;
    int i;

    wr32(r, PHYAR, cmd);
    for (i = 0; i < 100; i++) {     /* r8169 polls 100 x 20-25 us */
        v = rd32(r, PHYAR);
        if ((v & PHYAR_FLAG) == want) {
            return v;
        }
        step(r, 25 * 1000);
    }
    g_assert_not_reached();
}

static uint16_t mdio_read(Rtl *r, int reg)
{
    return phyar_access(r, reg << 16) & 0xffff;
}

static void mdio_write(Rtl *r, int reg, uint16_t val)
{
    phyar_access(r, PHYAR_FLAG | reg << 16 | val);
}

static void test_phyar(const void *data)
{
    const Chip *chip = data;
    Rtl r;
    uint16_t adv;

    rtl_start(&r, chip, ",timing=on");
    g_assert_cmphex(mdio_read(&r, 2), ==, 0x001c);          /* PHYSID1 */
    g_assert_cmphex(mdio_read(&r, 3), ==, chip->phy_id2);   /* PHYSID2 */
    adv = mdio_read(&r, 4);                                 /* ADVERTISE */
    mdio_write(&r, 4, adv ^ 0x0400);                        /* pause */
    g_assert_cmphex(mdio_read(&r, 4), ==, adv ^ 0x0400);
    mdio_write(&r, 4, adv);
    g_assert_cmphex(mdio_read(&r, 4), ==, adv);
    rtl_stop(&r);
}

/*
 * The 8168g class (8168h): MAC OCP through OCPDR (0xb0) answers a read at
 * once (r8168_mac_ocp_read does not poll); the PHY through GPHY_OCP (0xb8)
 * completes with the bit-31 handshake r8168_phy_ocp_read/write poll, its
 * C22 registers at 0xa400 + 2r; every 32-bit value names an even word.
 */
#define OCPDR 0xb0
#define GPHY_OCP 0xb8
#define MCU 0xd3

static uint16_t gphy_ocp_access(Rtl *r, uint32_t cmd)
{
    int i;

    wr32(r, GPHY_OCP, cmd);
    for (i = 0; i < 10; i++) {
        uint32_t v = rd32(r, GPHY_OCP);

        if (!!(v & PHYAR_FLAG) != !!(cmd & PHYAR_FLAG)) {
            return v & 0xffff;
        }
        step(r, 25 * 1000);
    }
    g_assert_not_reached();
}

static void test_ocp(const void *data)
{
    const Chip *chip = data;
    Rtl r;

    rtl_start(&r, chip, ",timing=on");
    wr32(&r, OCPDR, PHYAR_FLAG | 0xd412u << 15 | 0x03e8);
    wr32(&r, OCPDR, 0xd412u << 15);
    g_assert_cmphex(rd32(&r, OCPDR) & 0xffff, ==, 0x03e8);
    g_assert_cmphex(gphy_ocp_access(&r, 0xa404u << 15), ==, 0x001c);  /* PHYSID1 */
    g_assert_cmphex(gphy_ocp_access(&r, 0xa406u << 15), ==, chip->phy_id2);
    gphy_ocp_access(&r, PHYAR_FLAG | 0xa5d0u << 15 | 0x0006);         /* EEE adv */
    g_assert_cmphex(gphy_ocp_access(&r, 0xa5d0u << 15), ==, 0x0006);
    /* Absurd commands decode to a word; nothing is refused or counted. */
    gphy_ocp_access(&r, 0x7fffffff);
    wr32(&r, OCPDR, 0xffffffff);
    rd32(&r, OCPDR);
    /* MCU: TX/RX FIFOs empty and the link list ready on an idle chip. */
    g_assert_cmphex(rd8(&r, MCU) & 0x32, ==, 0x32);
    rtl_stop(&r);
}

/* ---- rings and frames -------------------------------------------------------- */

typedef struct Rings {
    uint64_t tx_ring, rx_ring, tx_buf, rx_buf;
} Rings;

#define RX_BUF_SIZE 2048

/* r8169's rtl_hw_start order, one TX and one RX descriptor (both EOR). */
static void rings_start(Rtl *r, Rings *g, uint16_t irq_mask)
{
    g->tx_ring = alloc_aligned(r, 256);
    g->rx_ring = alloc_aligned(r, 256);
    g->tx_buf = guest_alloc(&r->alloc, RX_BUF_SIZE);
    g->rx_buf = guest_alloc(&r->alloc, RX_BUF_SIZE);
    qtest_memset(r->qts, g->rx_buf, 0, RX_BUF_SIZE);
    write_desc(r, g->rx_ring, DescOwn | RingEnd | RX_BUF_SIZE, 0, g->rx_buf);

    wr8(r, Cfg9346, Cfg9346_Unlock);
    wr16(r, RxMaxSize, RX_BUF_SIZE);
    wr32(r, TxDescStartAddrHigh, g->tx_ring >> 32);
    wr32(r, TxDescStartAddrLow, (uint32_t)g->tx_ring);
    wr32(r, RxDescAddrHigh, g->rx_ring >> 32);
    wr32(r, RxDescAddrLow, (uint32_t)g->rx_ring);
    wr8(r, Cfg9346, Cfg9346_Lock);
    wr8(r, ChipCmd, CmdTxEnb | CmdRxEnb);
    wr32(r, TxConfig, 0x03000700);      /* IFG, MXDMA unlimited */
    wr32(r, RxConfig, 0xc700 | AcceptBroadcast | AcceptMyPhys);
    wr16(r, IntrStatus, 0xffff);
    wr16(r, IntrMask, irq_mask);
}

static void tx_queue(Rtl *r, Rings *g, const uint8_t *f, size_t len)
{
    qtest_memwrite(r->qts, g->tx_buf, f, len);
    write_desc(r, g->tx_ring, DescOwn | RingEnd | FirstFrag | LastFrag | len,
               0, g->tx_buf);
    wr8(r, TxPoll, NPQ);
}

static void check_tx_done(Rtl *r, Rings *g, int sock, const uint8_t *f,
                          size_t len)
{
    uint8_t got[256];

    g_assert_cmphex(qtest_readl(r->qts, g->tx_ring) & DescOwn, ==, 0);
    g_assert_cmphex(rd16(r, IntrStatus) & TxOK, ==, TxOK);
    sock_recv_frame(sock, got, len);
    g_assert_cmpmem(got, len, f, len);
}

static void test_tx_frame(const void *data)
{
    Rtl r;
    Rings g;
    uint8_t f[100];

    rtl_start(&r, data, NULL);
    wait_link(&r);
    rings_start(&r, &g, TxOK | RxOK);
    build_frame(f, sizeof(f), peer_mac, rtl_mac, 0x11);
    tx_queue(&r, &g, f, sizeof(f));
    step(&r, 1000 * 1000);
    check_tx_done(&r, &g, r.sock, f, sizeof(f));
    g_assert_false(sock_has_data(r.sock));
    rtl_stop(&r);
}

static void test_rx_frame(const void *data)
{
    static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    Rtl r;
    Rings g;
    uint8_t f[100], got[100];
    uint32_t opts1 = DescOwn;
    int i;

    rtl_start(&r, data, NULL);
    wait_link(&r);
    rings_start(&r, &g, TxOK | RxOK);
    build_frame(f, sizeof(f), bcast, peer_mac, 0x22);
    sock_send_frame(r.sock, f, sizeof(f));
    /* QEMU reads the socket from its main loop: poll like a driver */
    for (i = 0; i < 1000 && (opts1 & DescOwn); i++) {
        step(&r, 100 * 1000);
        opts1 = qtest_readl(r.qts, g.rx_ring);
        if (opts1 & DescOwn) {
            g_usleep(1000);
        }
    }
    g_assert_cmphex(opts1 & (DescOwn | FirstFrag | LastFrag | RxBAR), ==,
                    FirstFrag | LastFrag | RxBAR);
    g_assert_cmpuint(opts1 & 0x3fff, ==, sizeof(f) + 4);   /* with FCS */
    qtest_memread(r.qts, g.rx_buf, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), f, sizeof(f));
    g_assert_cmphex(rd16(&r, IntrStatus) & RxOK, ==, RxOK);
    rtl_stop(&r);
}

/*
 * DMA aimed at the device's own BAR (QEMU's re-entrancy cases on other
 * NICs): refused and counted (SYSErr), never a register access. An RX buffer
 * at BAR2 would otherwise write the frame over the registers (TimerInt at
 * 0x58 here); a TX buffer there would send the registers as a frame. Both
 * timing modes: functional DMA runs inside the guest's MMIO access, timed
 * DMA from the device's timer.
 */
static void dma_reentrancy(const Chip *chip, const char *props)
{
    static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    enum { SYSErr = 0x8000, TxErr = 0x0008, RxErr = 0x0002 };
    Rtl r;
    Rings g;
    uint8_t f[100];
    int i;

    rtl_start(&r, chip, props);
    wait_link(&r);
    rings_start(&r, &g, 0);
    g_assert_false(r.mmio.is_io);

    /* RX: the buffer is our own register file */
    write_desc(&r, g.rx_ring, DescOwn | RingEnd | RX_BUF_SIZE, 0, r.mmio.addr);
    memset(f, 0, sizeof(f));
    memcpy(f, bcast, 6);
    memcpy(f + 6, peer_mac, 6);
    f[0x58] = 0x78;     /* TimerInt, if the write got through */
    f[0x59] = 0x56;
    for (i = 0; i < 1000 && !(rd16(&r, IntrStatus) & RxErr); i++) {
        if (i == 0) {
            sock_send_frame(r.sock, f, sizeof(f));
        }
        step(&r, 100 * 1000);
        g_usleep(1000);
    }
    g_assert_cmphex(rd16(&r, IntrStatus) & (SYSErr | RxErr), ==,
                    SYSErr | RxErr);
    g_assert_cmphex(rd32(&r, TimerInt), ==, 0);
    g_assert_cmphex(rd32(&r, 0x08), ==, 0);     /* MAR0 */

    /* TX: the buffer is our own register file */
    wr16(&r, IntrStatus, 0xffff);
    write_desc(&r, g.tx_ring, DescOwn | RingEnd | FirstFrag | LastFrag | 64,
               0, r.mmio.addr);
    wr8(&r, TxPoll, NPQ);
    step(&r, 1000 * 1000);
    g_assert_cmphex(rd16(&r, IntrStatus) & (SYSErr | TxErr), ==,
                    SYSErr | TxErr);
    g_assert_false(sock_has_data(r.sock));
    rtl_stop(&r);
}

static void test_dma_reentrancy(const void *data)
{
    dma_reentrancy(data, ",timing=on");
    dma_reentrancy(data, ",timing=off");
}

/* ---- interrupts ------------------------------------------------------------- */

static void test_msi(const void *data)
{
    Rtl r;
    uint64_t msg;

    rtl_start(&r, data, NULL);
    msg = msi_to_ram(&r, 0x4321);

    wr16(&r, IntrMask, SWInt);
    wr8(&r, TxPoll, FSWInt);                    /* INT 0 -> 1: one MSI */
    g_assert_cmphex(qtest_readl(r.qts, msg), ==, 0x4321);
    g_assert_cmphex(qpci_config_readw(r.dev, PCI_STATUS) &
                    PCI_STATUS_INTERRUPT, ==, 0);   /* no INTx with MSI */

    qtest_writel(r.qts, msg, 0);
    wr8(&r, TxPoll, FSWInt);                    /* INT stays 1: no MSI */
    g_assert_cmphex(qtest_readl(r.qts, msg), ==, 0);

    wr16(&r, IntrStatus, SWInt);                /* INT 1 -> 0 */
    g_assert_cmphex(qtest_readl(r.qts, msg), ==, 0);
    wr8(&r, TxPoll, FSWInt);                    /* a new edge */
    g_assert_cmphex(qtest_readl(r.qts, msg), ==, 0x4321);

    qtest_writel(r.qts, msg, 0);                /* unmask edge: an MSI too */
    wr16(&r, IntrMask, 0);
    wr16(&r, IntrMask, SWInt);
    g_assert_cmphex(qtest_readl(r.qts, msg), ==, 0x4321);
    rtl_stop(&r);
}

/* The ioapic input the NIC's INTA# reaches, or -1 when none is high. */
static int intx_gsi(Rtl *r)
{
    int gsi, found = -1;

    for (gsi = 0; gsi < 24; gsi++) {
        if (qtest_get_irq(r->qts, gsi)) {
            g_assert_cmpint(found, ==, -1);
            found = gsi;
        }
    }
    return found;
}

static void test_intx(const void *data)
{
    Rtl r;
    int gsi;

    rtl_start(&r, data, NULL);
    qtest_irq_intercept_in(r.qts, "ioapic");
    g_assert_cmpint(intx_gsi(&r), ==, -1);

    wr8(&r, TxPoll, FSWInt);                    /* masked: no INTx */
    g_assert_cmpint(intx_gsi(&r), ==, -1);
    wr16(&r, IntrMask, SWInt);                  /* level follows the mask */
    gsi = intx_gsi(&r);
    g_assert_cmpint(gsi, >=, 16);               /* a PCI (PIRQ) input */
    g_assert_cmphex(qpci_config_readw(r.dev, PCI_STATUS) &
                    PCI_STATUS_INTERRUPT, ==, PCI_STATUS_INTERRUPT);
    wr16(&r, IntrStatus, SWInt);
    g_assert_cmpint(intx_gsi(&r), ==, -1);
    g_assert_cmphex(qpci_config_readw(r.dev, PCI_STATUS) &
                    PCI_STATUS_INTERRUPT, ==, 0);
    wr8(&r, TxPoll, FSWInt);
    g_assert_cmpint(intx_gsi(&r), ==, gsi);
    wr16(&r, IntrMask, 0);
    g_assert_cmpint(intx_gsi(&r), ==, -1);
    rtl_stop(&r);
}

/* ---- chip timer ------------------------------------------------------------- */

/* TCTR counts at timer-clock (125 MHz: 8 ns); TimerInt latches PCSTimeout. */
static void test_timer(const void *data)
{
    Rtl r;

    rtl_start(&r, data, NULL);
    wr32(&r, TCTR, 0);                          /* restart the count */
    g_assert_cmpuint(rd32(&r, TCTR), ==, 0);
    step(&r, 8000);
    g_assert_cmpuint(rd32(&r, TCTR), ==, 1000);
    step(&r, 7);
    g_assert_cmpuint(rd32(&r, TCTR), ==, 1000);
    step(&r, 1);
    g_assert_cmpuint(rd32(&r, TCTR), ==, 1001);

    wr32(&r, TCTR, 0);
    wr32(&r, TimerInt, 1250);                   /* a 10 us period */
    wr16(&r, IntrStatus, 0xffff);
    step(&r, 10000 - 8);
    g_assert_cmphex(rd16(&r, IntrStatus) & PCSTimeout, ==, 0);
    step(&r, 8);
    g_assert_cmphex(rd16(&r, IntrStatus) & PCSTimeout, ==, PCSTimeout);
    wr16(&r, IntrStatus, PCSTimeout);
    step(&r, 10000);                            /* once per period */
    g_assert_cmphex(rd16(&r, IntrStatus) & PCSTimeout, ==, PCSTimeout);

    wr32(&r, TimerInt, 0);                      /* off */
    wr16(&r, IntrStatus, PCSTimeout);
    step(&r, 100 * 1000);
    g_assert_cmphex(rd16(&r, IntrStatus) & PCSTimeout, ==, 0);
    rtl_stop(&r);
}

/* ---- migration with a frame in flight -------------------------------------- */

static void wait_migration(QTestState *from)
{
    int i;

    for (i = 0; i < 3000; i++) {
        QDict *rsp = qtest_qmp_assert_success_ref(from,
                                                  "{'execute': 'query-migrate'}");
        const char *st = qdict_get_try_str(rsp, "status");
        bool done = st && !strcmp(st, "completed");

        g_assert(!st || (strcmp(st, "failed") && strcmp(st, "cancelled")));
        qobject_unref(rsp);
        if (done) {
            return;
        }
        g_usleep(10 * 1000);
    }
    g_assert_not_reached();
}

/*
 * timing=on with a slow PCIe read: the doorbell's descriptor fetch is still
 * pending when the source stops, so the frame leaves from the destination,
 * through the destination's backend, once its virtual clock runs.
 */
static void test_migrate_tx_in_flight(const void *data)
{
    const Chip *chip = data;
    const char *props = ",timing=on,pcie-read-latency=500000";
    Rtl src, dst;
    Rings g;
    uint8_t f[120];
    int sv[2];
    g_autofree char *tmp = g_dir_make_tmp("rtl8168-test-XXXXXX", NULL);
    g_autofree char *path = g_strdup_printf("%s/migsocket", tmp);
    g_autofree char *uri = g_strdup_printf("unix:%s", path);

    rtl_start(&src, chip, props);
    wait_link(&src);
    rings_start(&src, &g, TxOK | RxOK);
    build_frame(f, sizeof(f), peer_mac, rtl_mac, 0x33);
    tx_queue(&src, &g, f, sizeof(f));
    step(&src, 1000);                           /* fetch not done yet */
    g_assert_cmphex(qtest_readl(src.qts, g.tx_ring) & DescOwn, ==, DescOwn);

    /* The destination: same device, its own backend socket */
    memset(&dst, 0, sizeof(dst));
    g_assert_cmpint(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), ==, 0);
    dst.qts = qtest_initf("-M q35 -nodefaults "
                          "-netdev socket,id=hs0,fd=%d "
                          "-device rtl8168,id=nic0,addr=%02x.0,netdev=hs0,"
                          "mac=" RTL_MAC ",chip=%s%s -incoming %s",
                          sv[1], RTL_SLOT, chip->id, props, uri);
    close(sv[1]);
    dst.sock = sv[0];
    /*
     * The qtest accelerator's clock is not part of the migration stream
     * (TCG's and KVM's are): start the destination's where the source's is.
     */
    qtest_clock_set(dst.qts, src.now);
    qtest_qmp_assert_success(src.qts,
                             "{'execute': 'migrate', 'arguments': {'uri': %s}}",
                             uri);
    wait_migration(src.qts);
    qtest_qmp_eventwait(dst.qts, "RESUME");
    rtl_attach(&dst);

    /* Nothing left the source; the destination finishes the frame */
    g_assert_false(sock_has_data(src.sock));    /* (the source does not announce) */
    g_assert_cmphex(qtest_readl(dst.qts, g.tx_ring) & DescOwn, ==, DescOwn);
    step(&dst, 2 * 1000 * 1000);
    check_tx_done(&dst, &g, dst.sock, f, sizeof(f));
    g_assert_false(sock_has_data(src.sock));

    /* and still works afterwards: a second frame */
    build_frame(f, sizeof(f), peer_mac, rtl_mac, 0x44);
    wr16(&dst, IntrStatus, 0xffff);
    tx_queue(&dst, &g, f, sizeof(f));
    step(&dst, 2 * 1000 * 1000);
    check_tx_done(&dst, &g, dst.sock, f, sizeof(f));

    rtl_stop(&dst);
    rtl_stop(&src);
    unlink(path);
    rmdir(tmp);
}

/* ---- fault injection (docs/FAULTS.md "QEMU") ------------------------------ */

enum { SYSErr = 0x8000, TxErr = 0x0008 };

/* qom-get of a string property that holds JSON, parsed. */
static QDict *qom_get_json(QTestState *qts, const char *prop)
{
    QDict *rsp = qtest_qmp(qts, "{'execute': 'qom-get', 'arguments':"
                           " {'path': 'nic0', 'property': %s}}", prop);
    QDict *doc;

    g_assert(qdict_haskey(rsp, "return"));
    doc = qobject_to(QDict, qobject_from_json(qdict_get_str(rsp, "return"),
                                              &error_abort));
    g_assert_nonnull(doc);
    qobject_unref(rsp);
    return doc;
}

/* The fault list's entry i (a new reference), or NULL past its end. */
static QDict *fault_at(QDict *list, unsigned i)
{
    QListEntry *e;

    QLIST_FOREACH_ENTRY(qdict_get_qlist(list, "faults"), e) {
        if (i-- == 0) {
            QDict *f = qobject_to(QDict, qlist_entry_obj(e));

            qobject_ref(f);
            return f;
        }
    }
    return NULL;
}

static unsigned fault_count(QTestState *qts)
{
    QDict *list = qom_get_json(qts, "fault-list");
    unsigned n = qlist_size(qdict_get_qlist(list, "faults"));

    qobject_unref(list);
    return n;
}

/* QMP qom-set fault-add: NULL on success, else the error's text (g_free). */
static char *qmp_fault_add(QTestState *qts, const char *spec)
{
    QDict *rsp = qtest_qmp(qts, "{'execute': 'qom-set', 'arguments':"
                           " {'path': 'nic0', 'property': 'fault-add',"
                           " 'value': %s}}", spec);
    char *err = NULL;

    if (qdict_haskey(rsp, "error")) {
        err = g_strdup(qdict_get_str(qdict_get_qdict(rsp, "error"), "desc"));
    }
    qobject_unref(rsp);
    return err;
}

/* ---- ASPM L1 (docs/TIMING.md "ASPM L1") ------------------------------------ */

enum { Config5 = 0x56, Cfg5AspmEn = 0x01 };

static int64_t stat_of(QTestState *qts, const char *key)
{
    QDict *stats = qom_get_json(qts, "x-stats");
    int64_t v = qdict_get_int(stats, key);

    qobject_unref(stats);
    return v;
}

/*
 * Link Capabilities and Link Control as the profile says, and the shim's
 * forwarding of config writes: on the 8168h the OS's ASPM Control (L1) plus
 * Config5 ASPM_en let the link enter L1 after 16 us without traffic, and the
 * aspm-l1-txpoll-lost quirk loses the doorbell that finds it there (the frame
 * stays in the ring) until the OS clears ASPM Control, as r8169's TX-timeout
 * task does. The older chips keep QEMU's read-only ASPM Control and send.
 */
static void test_aspm(const void *data)
{
    const Chip *chip = data;
    Rtl r;
    Rings g;
    uint8_t f[100];
    uint8_t exp;
    uint32_t lnkcap;
    uint16_t lnkctl;

    rtl_start(&r, chip, ",timing=on");
    exp = qpci_find_capability(r.dev, PCI_CAP_ID_EXP, 0);
    g_assert_cmphex(exp, ==, 0x70);
    lnkcap = qpci_config_readl(r.dev, exp + PCI_EXP_LNKCAP);
    lnkctl = qpci_config_readw(r.dev, exp + PCI_EXP_LNKCTL);
    qpci_config_writew(r.dev, exp + PCI_EXP_LNKCTL, lnkctl | PCI_EXP_LNKCTL_ASPMC);
    if (chip->aspm_l1) {
        /* L0s and L1; exit latencies > 4 us and 32-64 us (profile.cc) */
        g_assert_cmphex(lnkcap & PCI_EXP_LNKCAP_ASPMS, ==, PCI_EXP_LNKCAP_ASPMS);
        g_assert_cmphex((lnkcap & PCI_EXP_LNKCAP_L0SEL) >> 12, ==, 7);
        g_assert_cmphex((lnkcap & PCI_EXP_LNKCAP_L1EL) >> 15, ==, 6);
        g_assert_cmphex(qpci_config_readw(r.dev, exp + PCI_EXP_LNKCTL) &
                        PCI_EXP_LNKCTL_ASPMC, ==, PCI_EXP_LNKCTL_ASPMC);
        qpci_config_writew(r.dev, exp + PCI_EXP_LNKCTL, lnkctl | PCI_EXP_LNKCTL_ASPM_L1);
    } else {
        g_assert_cmphex(qpci_config_readw(r.dev, exp + PCI_EXP_LNKCTL) &
                        PCI_EXP_LNKCTL_ASPMC, ==, 0);
    }
    wait_link(&r);
    rings_start(&r, &g, TxOK | RxOK);
    wr8(&r, Cfg9346, Cfg9346_Unlock);
    wr8(&r, Config5, rd8(&r, Config5) | Cfg5AspmEn);
    wr8(&r, Cfg9346, Cfg9346_Lock);
    step(&r, 100 * 1000);               /* idle: past the 16 us entrance latency */
    build_frame(f, sizeof(f), peer_mac, rtl_mac, 0x11);
    if (!chip->aspm_l1) {
        g_assert_cmpint(stat_of(r.qts, "aspm_l1_entries"), ==, 0);
        tx_queue(&r, &g, f, sizeof(f));
        step(&r, 1000 * 1000);
        check_tx_done(&r, &g, r.sock, f, sizeof(f));
        rtl_stop(&r);
        return;
    }
    g_assert_cmpint(stat_of(r.qts, "aspm_l1_entries"), ==, 1);
    tx_queue(&r, &g, f, sizeof(f));     /* the doorbell wakes the link, is lost */
    step(&r, 1000 * 1000);
    g_assert_cmphex(qtest_readl(r.qts, g.tx_ring) & DescOwn, ==, DescOwn);
    g_assert_cmpint(stat_of(r.qts, "tx_doorbells_lost_l1"), ==, 1);
    g_assert_false(sock_has_data(r.sock));
    /* The OS disables ASPM (pci_disable_link_state): the next doorbell works */
    qpci_config_writew(r.dev, exp + PCI_EXP_LNKCTL, lnkctl & ~PCI_EXP_LNKCTL_ASPMC);
    wr8(&r, TxPoll, NPQ);
    step(&r, 1000 * 1000);
    check_tx_done(&r, &g, r.sock, f, sizeof(f));
    g_assert_cmpint(stat_of(r.qts, "tx_doorbells_lost_l1"), ==, 1);
    g_assert_cmpint(stat_of(r.qts, "aspm_l1_entries"), ==, 2);
    rtl_stop(&r);
}

/*
 * The schedule at start-up (-device ...,faults=SPEC, commas doubled as in
 * every QEMU option value) and at run time (qom-set fault-add over QMP):
 * each fault fires as the model defines it, is listed with its counters, a
 * bad spec is refused with the model's message and adds nothing, fault-clear
 * empties the list, and a system reset drops what was added at run time and
 * re-installs the configured schedule with its counters at zero.
 */
static void test_fault_qmp(const void *data)
{
    const Chip *chip = data;
    Rtl r;
    Rings g;
    QDict *list, *f, *stats;
    uint8_t frame[100];
    g_autofree char *err = NULL;

    rtl_start(&r, chip, ",faults=spurious-irq:at=+2ms,,bits=0x4000");
    g_assert_cmpstr(prop_type(r.qts, "faults"), ==, "str");
    g_assert_cmpstr(prop_type(r.qts, "fault-add"), ==, "str");
    g_assert_cmpstr(prop_type(r.qts, "fault-clear"), ==, "bool");
    g_assert_cmpstr(prop_type(r.qts, "fault-list"), ==, "str");
    g_assert_cmpstr(prop_type(r.qts, "x-stats"), ==, "str");

    /* The configured fault: waiting until 2 ms after the reset, then fired */
    list = qom_get_json(r.qts, "fault-list");
    f = fault_at(list, 0);
    g_assert_nonnull(f);
    g_assert_cmpstr(qdict_get_str(f, "class"), ==, "spurious-irq");
    g_assert_cmpint(qdict_get_int(f, "fired"), ==, 0);
    g_assert_null(fault_at(list, 1));
    qobject_unref(f);
    qobject_unref(list);
    g_assert_cmphex(rd16(&r, IntrStatus) & PCSTimeout, ==, 0);
    step(&r, 3 * 1000 * 1000);
    g_assert_cmphex(rd16(&r, IntrStatus) & PCSTimeout, ==, PCSTimeout);
    wr16(&r, IntrStatus, PCSTimeout);

    /* Run time: SYSErr with RxOK, latched at once */
    g_assert_null(qmp_fault_add(r.qts, "spurious-irq:bits=0x8001"));
    g_assert_cmphex(rd16(&r, IntrStatus) & (SYSErr | RxOK), ==, SYSErr | RxOK);
    wr16(&r, IntrStatus, 0xffff);

    /* A bad spec: refused with the key and what it accepts, nothing added */
    err = qmp_fault_add(r.qts, "dma-read:nth=0;spurious-irq:bits=0x1");
    g_assert_nonnull(err);
    g_test_message("refused: %s", err);
    g_assert_nonnull(strstr(err, "nth"));
    g_assert_cmpuint(fault_count(r.qts), ==, 2);
    g_clear_pointer(&err, g_free);
    err = qmp_fault_add(r.qts, "no-such-fault");
    g_assert_nonnull(err);
    g_assert_nonnull(strstr(err, "no-such-fault"));
    g_assert_cmpuint(fault_count(r.qts), ==, 2);

    /* A failed bus-master read: the TX descriptor fetch -> TxErr|SYSErr */
    wait_link(&r);
    rings_start(&r, &g, 0);
    g_assert_null(qmp_fault_add(r.qts, "dma-read:nth=1"));
    build_frame(frame, sizeof(frame), peer_mac, rtl_mac, 0x66);
    tx_queue(&r, &g, frame, sizeof(frame));
    step(&r, 1000 * 1000);
    g_assert_cmphex(rd16(&r, IntrStatus) & (SYSErr | TxErr), ==, SYSErr | TxErr);
    g_assert_false(sock_has_data(r.sock));

    list = qom_get_json(r.qts, "fault-list");
    f = fault_at(list, 2);
    g_assert_nonnull(f);
    g_assert_cmpstr(qdict_get_str(f, "class"), ==, "dma-read");
    g_assert_cmpstr(qdict_get_str(f, "state"), ==, "done");
    g_assert_cmpint(qdict_get_int(f, "fired"), ==, 1);
    g_assert_cmpint(qdict_get_int(list, "fired_total"), ==, 3);
    qobject_unref(f);
    qobject_unref(list);
    stats = qom_get_json(r.qts, "x-stats");
    g_assert_cmpint(qdict_get_int(stats, "faults_fired"), ==, 3);
    g_assert_cmpint(qdict_get_int(stats, "tx_dma_errors"), >=, 1);
    g_assert_cmpint(qdict_get_int(stats, "tx_frames"), ==, 0);
    qobject_unref(stats);

    /* fault-clear drops every fault, the configured one too */
    qtest_qmp_assert_success(r.qts, "{'execute': 'qom-set', 'arguments':"
                             " {'path': 'nic0', 'property': 'fault-clear',"
                             " 'value': true}}");
    g_assert_cmpuint(fault_count(r.qts), ==, 0);

    /* A system reset: runtime faults gone, the configured one back at zero */
    g_assert_null(qmp_fault_add(r.qts, "rx-withhold:count=all"));
    g_assert_cmpuint(fault_count(r.qts), ==, 1);
    qtest_system_reset(r.qts);
    list = qom_get_json(r.qts, "fault-list");
    f = fault_at(list, 0);
    g_assert_nonnull(f);
    g_assert_cmpstr(qdict_get_str(f, "class"), ==, "spurious-irq");
    g_assert_cmpint(qdict_get_int(f, "fired"), ==, 0);
    g_assert_null(fault_at(list, 1));
    g_assert_cmpint(qdict_get_int(list, "fired_total"), ==, 0);
    qobject_unref(f);
    qobject_unref(list);
    rtl_stop(&r);
}

/*
 * The same through HMP's generic qom-set/qom-get, and the property cannot
 * be used before the device runs (-device ...,fault-add= is refused).
 */
static void test_fault_hmp(const void *data)
{
    const Chip *chip = data;
    Rtl r;
    g_autofree char *out = NULL;
    QTestState *qts;
    QDict *rsp;

    rtl_start(&r, chip, NULL);
    out = qtest_hmp(r.qts, "qom-set nic0 fault-add spurious-irq:bits=0x0100");
    g_assert_cmpstr(out, ==, "");
    g_assert_cmphex(rd16(&r, IntrStatus) & SWInt, ==, SWInt);
    g_free(out);
    out = qtest_hmp(r.qts, "qom-get nic0 fault-list");
    g_assert_nonnull(strstr(out, "spurious-irq:bits="));
    g_assert_nonnull(strstr(out, "\\\"fired\\\": 1"));
    g_free(out);
    out = qtest_hmp(r.qts, "qom-set nic0 fault-add link:speed=7");
    g_test_message("HMP refused: %s", out);
    g_assert_nonnull(strstr(out, "speed"));
    g_free(out);
    out = qtest_hmp(r.qts, "qom-set nic0 fault-clear true");
    g_assert_cmpstr(out, ==, "");
    g_assert_cmpuint(fault_count(r.qts), ==, 0);
    g_clear_pointer(&out, g_free);
    rtl_stop(&r);

    /* Before realize there is no schedule to add to: a clear error */
    qts = qtest_init("-M q35 -nodefaults "
                     "-device pcie-root-port,id=rp1,chassis=1,slot=1");
    rsp = qtest_qmp(qts, "{'execute': 'device_add', 'arguments':"
                    " {'driver': 'rtl8168', 'id': 'nic1', 'bus': 'rp1',"
                    " 'fault-add': 'dma-read'}}");
    g_assert(qdict_haskey(rsp, "error"));
    g_test_message("device_add refused: %s",
                   qdict_get_str(qdict_get_qdict(rsp, "error"), "desc"));
    g_assert_nonnull(strstr(qdict_get_str(qdict_get_qdict(rsp, "error"), "desc"),
                            "running device"));
    qobject_unref(rsp);
    qtest_quit(qts);
}

/* ---- hostile migration streams ------------------------------------------- */

/* The destination's incoming migration: true when it loaded, false refused. */
static bool wait_incoming(QTestState *to)
{
    int i;

    for (i = 0; i < 3000; i++) {
        QDict *rsp = qtest_qmp_assert_success_ref(to,
                                                  "{'execute': 'query-migrate'}");
        const char *st = qdict_get_try_str(rsp, "status");
        int done = !st ? 0 : !strcmp(st, "completed") ? 1 :
                   !strcmp(st, "failed") ? 2 : 0;

        qobject_unref(rsp);
        if (done) {
            return done == 1;
        }
        g_usleep(10 * 1000);
    }
    g_assert_not_reached();
}

enum { HOSTILE_STREAMS = 36 };

/*
 * A migration stream is input from outside: the device's section (PCI
 * config space, the model's state blob and its length) of a stream saved
 * with a frame in flight, mutated, loaded with migrate-incoming
 * (exit-on-error=false). QEMU must refuse it or load it, never crash or
 * hang, and a loaded device must keep running.
 */
static void test_migrate_hostile(const void *data)
{
    static const char magic[8] = "R8168ST";     /* model/src/device_state.cc */
    const Chip *chip = data;
    const char *props = ",timing=on,pcie-read-latency=500000";
    g_autofree char *tmp = g_dir_make_tmp("rtl8168-test-XXXXXX", NULL);
    g_autofree char *saved = g_strdup_printf("%s/saved", tmp);
    g_autofree char *mutated = g_strdup_printf("%s/mutated", tmp);
    g_autofree char *save_uri = g_strdup_printf("file:%s", saved);
    g_autofree char *load_uri = g_strdup_printf("file:%s", mutated);
    g_autofree uint8_t *stream = NULL;
    GRand *rng = g_rand_new_with_seed(chip->txconfig);
    const uint8_t *m;
    size_t len, at, blob_len;
    unsigned loaded = 0, refused = 0;
    Rtl src;
    Rings g;
    uint8_t f[120];
    int i;

    rtl_start(&src, chip, props);
    wait_link(&src);
    rings_start(&src, &g, TxOK | RxOK);
    build_frame(f, sizeof(f), peer_mac, rtl_mac, 0x55);
    tx_queue(&src, &g, f, sizeof(f));
    step(&src, 1000);
    qtest_qmp_assert_success(src.qts,
                             "{'execute': 'migrate', 'arguments': {'uri': %s}}",
                             save_uri);
    wait_migration(src.qts);
    rtl_stop(&src);

    g_assert_true(g_file_get_contents(saved, (char **)&stream, &len, NULL));
    m = memmem(stream, len, magic, sizeof(magic));
    g_assert_nonnull(m);
    at = m - stream;                            /* the blob; its length before */
    g_assert_cmpuint(at, >=, 4 + 4096);
    blob_len = ldl_be_p(stream + at - 4);
    g_assert_cmpuint(at + blob_len, <=, len);
    g_assert_null(memmem(m + 1, len - at - 1, magic, sizeof(magic)));

    for (i = 0; i < HOSTILE_STREAMS; i++) {
        g_autofree uint8_t *mut = g_memdup2(stream, len);
        static const uint32_t lens[] = { 0, 1, 7, 0x1000000, 0x1000001,
                                         0x7fffffff, 0xffffffff };
        size_t mut_len = len, k;
        QTestState *dst;
        int sv[2];

        switch (i % 6) {
        case 0:     /* one bit of the blob */
            k = at + g_rand_int_range(rng, 0, blob_len);
            mut[k] ^= 1 << g_rand_int_range(rng, 0, 8);
            break;
        case 1:     /* a few bytes of the blob's header: version, chip, now */
            for (k = 0; k < 4; k++) {
                mut[at + 8 + g_rand_int_range(rng, 0, 56)] = g_rand_int(rng);
            }
            break;
        case 2:     /* the blob's length */
            stl_be_p(mut + at - 4, i / 6 < G_N_ELEMENTS(lens) ?
                     lens[i / 6] : blob_len + g_rand_int_range(rng, -8, 9));
            break;
        case 3:     /* the stream ends inside the blob */
            mut_len = at + g_rand_int_range(rng, 0, blob_len);
            break;
        case 4:     /* one bit of the PCI config space and the irq state */
            k = at - 4 - g_rand_int_range(rng, 1, 4096 + 16);
            mut[k] ^= 1 << g_rand_int_range(rng, 0, 8);
            break;
        default:    /* a run of random bytes anywhere in the blob */
            k = at + g_rand_int_range(rng, 0, blob_len);
            for (; k < at + blob_len && k % 16; k++) {
                mut[k] = g_rand_int(rng);
            }
            break;
        }
        g_assert_true(g_file_set_contents(mutated, (char *)mut, mut_len, NULL));

        g_assert_cmpint(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), ==, 0);
        dst = qtest_initf("-M q35 -nodefaults "
                          "-netdev socket,id=hs0,fd=%d "
                          "-device rtl8168,id=nic0,addr=%02x.0,netdev=hs0,"
                          "mac=" RTL_MAC ",chip=%s%s -incoming defer",
                          sv[1], RTL_SLOT, chip->id, props);
        close(sv[1]);
        qtest_clock_set(dst, src.now);
        qtest_qmp_assert_success(dst,
            "{'execute': 'migrate-incoming',"
            " 'arguments': {'uri': %s, 'exit-on-error': false}}", load_uri);
        if (wait_incoming(dst)) {
            loaded++;
            qtest_qmp_eventwait(dst, "RESUME");
            qtest_clock_step(dst, 10 * 1000 * 1000);    /* run what it holds */
        } else {
            refused++;
        }
        qtest_qmp_assert_success(dst, "{'execute': 'query-status'}");
        qtest_quit(dst);    /* fails the test if QEMU died on a signal */
        close(sv[0]);
    }
    g_test_message("%s: %u mutated streams loaded, %u refused", chip->id,
                   loaded, refused);
    g_assert_cmpuint(refused, >, 0);

    /* The unmutated stream still loads */
    g_assert_true(g_file_set_contents(mutated, (char *)stream, len, NULL));
    {
        int sv[2];
        QTestState *dst;

        g_assert_cmpint(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), ==, 0);
        dst = qtest_initf("-M q35 -nodefaults "
                          "-netdev socket,id=hs0,fd=%d "
                          "-device rtl8168,id=nic0,addr=%02x.0,netdev=hs0,"
                          "mac=" RTL_MAC ",chip=%s%s -incoming defer",
                          sv[1], RTL_SLOT, chip->id, props);
        close(sv[1]);
        qtest_clock_set(dst, src.now);
        qtest_qmp_assert_success(dst,
            "{'execute': 'migrate-incoming',"
            " 'arguments': {'uri': %s, 'exit-on-error': false}}", load_uri);
        g_assert_true(wait_incoming(dst));
        qtest_quit(dst);
        close(sv[0]);
    }
    g_rand_free(rng);
    unlink(saved);
    unlink(mutated);
    rmdir(tmp);
}

/* ---- RTL8125B ------------------------------------------------------------ */

/*
 * PCI identity 10ec:8125 rev 05, BAR2 64 KiB (its registers fill it),
 * TxConfig's XID through both BARs, the station address backup at 0x19e0,
 * RSS/queue control as storage, unimplemented window addresses read 0.
 */
static void test_8125b_regs(const void *data)
{
    const Chip *chip = data;
    Rtl r;
    int i;

    rtl_start(&r, chip, NULL);
    check_identity(&r, chip);
    for (i = 0; i < 6; i++) {
        g_assert_cmphex(rd8(&r, MAC0_BKP + i), ==, rtl_mac[i]);
    }
    wr32(&r, RSS_CTRL_8125, 0x00310001);
    g_assert_cmphex(rd32(&r, RSS_CTRL_8125), ==, 0x00310001);
    wr16(&r, Q_NUM_CTRL_8125, 0x0002);
    g_assert_cmphex(rd16(&r, Q_NUM_CTRL_8125), ==, 0x0002);
    wr32(&r, 0x8000, 0xffffffff);
    g_assert_cmphex(rd32(&r, 0x8000), ==, 0);
    g_assert_cmphex(rd32(&r, 0xfffc), ==, 0);
    rtl_stop(&r);
}

/*
 * Link at 2500/full (PHYstatus bit 10, _2500bpsF), a frame out through the
 * doorbell at 0x90 (r8169 rtl8169_doorbell: 16-bit write of BIT(0)) with
 * TxOK in the 32-bit IntrStatus at 0x3c, and its MSI: the 8168's TxPoll
 * offset 0x38 is IntrMask here.
 */
static void test_8125b_tx_frame(const void *data)
{
    Rtl r;
    Rings g;
    uint8_t f[100], got[100];
    uint64_t msi_addr;
    const uint16_t msi_data = 0x4321;

    rtl_start(&r, data, NULL);
    step(&r, 1000 * 1000 * 1000);
    g_assert_cmphex(rd16(&r, PHYstatus), ==, 0x0463);
    msi_addr = msi_to_ram(&r, msi_data);

    rings_start(&r, &g, 0);
    wr32(&r, IntrStatus_8125, 0xffffffff);
    wr32(&r, IntrMask_8125, TxOK | RxOK);
    g_assert_cmphex(rd32(&r, IntrMask_8125), ==, TxOK | RxOK);
    build_frame(f, sizeof(f), peer_mac, rtl_mac, 0x33);
    qtest_memwrite(r.qts, g.tx_buf, f, sizeof(f));
    write_desc(&r, g.tx_ring, DescOwn | RingEnd | FirstFrag | LastFrag |
               sizeof(f), 0, g.tx_buf);
    wr16(&r, TxPoll_8125, 0x0001);
    step(&r, 1000 * 1000);
    g_assert_cmphex(qtest_readl(r.qts, g.tx_ring) & DescOwn, ==, 0);
    g_assert_cmphex(rd32(&r, IntrStatus_8125) & TxOK, ==, TxOK);
    g_assert_cmphex(qtest_readl(r.qts, msi_addr), ==, msi_data);
    sock_recv_frame(r.sock, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), f, sizeof(f));
    wr32(&r, IntrStatus_8125, TxOK);
    g_assert_cmphex(rd32(&r, IntrStatus_8125) & TxOK, ==, 0);
    rtl_stop(&r);
}

/*
 * MSI-X as the real part has it (lspci -vv of an RTL8125 rev 05: capability
 * 0xb0, 32 entries, table at 0 and PBA at 0x800 of the 16 KiB BAR 4), a
 * message through entry 0 (r8169's one vector), and a masked entry's
 * message pending in the PBA until it is unmasked.
 */
static void test_8125b_msix(const void *data)
{
    Rtl r;
    Rings g;
    uint8_t f[100];
    uint8_t cap;
    uint64_t bar_size, msg, entry0;
    QPCIBar bar4;

    rtl_start(&r, data, NULL);
    step(&r, 1000 * 1000 * 1000);
    cap = qpci_find_capability(r.dev, PCI_CAP_ID_MSIX, 0);
    g_assert_cmphex(cap, ==, 0xb0);
    g_assert_cmpuint(qpci_msix_table_size(r.dev), ==, 32);
    g_assert_cmphex(qpci_config_readl(r.dev, cap + PCI_MSIX_TABLE), ==, 4);
    g_assert_cmphex(qpci_config_readl(r.dev, cap + PCI_MSIX_PBA), ==,
                    0x800 | 4);
    bar4 = qpci_iomap(r.dev, 4, &bar_size);     /* sized only */
    g_assert_cmpuint(bar_size, ==, 16384);
    qpci_iounmap(r.dev, bar4);

    /*
     * libqos maps the table's and the PBA's BAR and sets the enable bit;
     * every entry starts masked (PCIe base spec, MSI-X Vector Control), so
     * nothing is sent before entry 0 is programmed.
     */
    qpci_msix_enable(r.dev);
    g_assert_true(qpci_msix_masked(r.dev, 0));
    msg = guest_alloc(&r.alloc, 4);
    qtest_writel(r.qts, msg, 0);
    entry0 = r.dev->msix_table_off;
    qpci_io_writel(r.dev, r.dev->msix_table_bar,
                   entry0 + PCI_MSIX_ENTRY_LOWER_ADDR, (uint32_t)msg);
    qpci_io_writel(r.dev, r.dev->msix_table_bar,
                   entry0 + PCI_MSIX_ENTRY_UPPER_ADDR, msg >> 32);
    qpci_io_writel(r.dev, r.dev->msix_table_bar,
                   entry0 + PCI_MSIX_ENTRY_DATA, 0x8125);

    /* TxOK while entry 0 is masked: pending, no message */
    rings_start(&r, &g, 0);
    wr32(&r, IntrStatus_8125, 0xffffffff);
    wr32(&r, IntrMask_8125, TxOK);
    build_frame(f, sizeof(f), peer_mac, rtl_mac, 0x44);
    qtest_memwrite(r.qts, g.tx_buf, f, sizeof(f));
    write_desc(&r, g.tx_ring, DescOwn | RingEnd | FirstFrag | LastFrag |
               sizeof(f), 0, g.tx_buf);
    wr16(&r, TxPoll_8125, 0x0001);
    step(&r, 1000 * 1000);
    g_assert_cmphex(rd32(&r, IntrStatus_8125) & TxOK, ==, TxOK);
    g_assert_cmphex(qtest_readl(r.qts, msg), ==, 0);
    g_assert_true(qpci_msix_pending(r.dev, 0));
    g_assert_cmphex(qpci_config_readw(r.dev, PCI_STATUS) &
                    PCI_STATUS_INTERRUPT, ==, 0);   /* no INTx either */
    /* Unmasked: the pending message goes out */
    qpci_io_writel(r.dev, r.dev->msix_table_bar,
                   entry0 + PCI_MSIX_ENTRY_VECTOR_CTRL, 0);
    g_assert_false(qpci_msix_masked(r.dev, 0));
    g_assert_cmphex(qtest_readl(r.qts, msg), ==, 0x8125);
    g_assert_false(qpci_msix_pending(r.dev, 0));
    /* The next edge sends at once */
    qtest_writel(r.qts, msg, 0);
    wr32(&r, IntrStatus_8125, TxOK);
    wr32(&r, IntrMask_8125, 0);
    wr32(&r, IntrStatus_8125, 0xffffffff);
    write_desc(&r, g.tx_ring, DescOwn | RingEnd | FirstFrag | LastFrag |
               sizeof(f), 0, g.tx_buf);
    wr32(&r, IntrMask_8125, TxOK);
    wr16(&r, TxPoll_8125, 0x0001);
    step(&r, 1000 * 1000);
    g_assert_cmphex(qtest_readl(r.qts, msg), ==, 0x8125);
    qpci_msix_disable(r.dev);
    rtl_stop(&r);
}

/*
 * RSS over the four RX queues the way r8125 programs it (rtl8125_config_rss:
 * RSS_CTRL with the TCP/IP types, 128 table entries, ilog2(4) queues; the
 * table ethtool_rxfh_indir_default(i, 4) = i % 4; the Microsoft verification
 * key). Flows are the Microsoft IPv4 vectors: each lands on queue hash % 4,
 * hash being the suite's published IPv4-with-TCP value.
 */
static const struct {
    uint8_t dst[4], src[4];
    uint16_t dport, sport;
    uint32_t hash;
} rss_flows[] = {
    { { 161, 142, 100, 80 }, { 66, 9, 149, 187 }, 1766, 2794, 0x51ccc178 },
    { { 65, 69, 140, 83 }, { 199, 92, 111, 2 }, 4739, 14230, 0xc626b0ea },
    { { 12, 22, 207, 184 }, { 24, 19, 198, 95 }, 38024, 12898, 0x5c2b394a },
    { { 209, 142, 163, 6 }, { 38, 27, 205, 30 }, 2217, 48228, 0xafc7327f },
    { { 202, 188, 127, 2 }, { 153, 39, 163, 191 }, 1303, 44251, 0x10e828a2 },
};

#define RSS_SLOTS 8

typedef struct RssRings {
    uint64_t ring[4], buf[4];
} RssRings;

/*
 * r8169's start (IntrMask 0), then rings of RSS_SLOTS owned descriptors for
 * RX queues 0-3 (queue q > 0 at RDSAR_Q1_LOW_8125 0x4000 + 8 (q - 1)) and
 * RSS as above.
 */
static void rss_start(Rtl *r, RssRings *m)
{
    static const uint8_t key[40] = {
        0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
        0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb,
        0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30,
        0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
    };
    Rings g;
    unsigned q, i, k;

    rings_start(r, &g, 0);
    m->ring[0] = g.rx_ring;
    for (q = 1; q < 4; q++) {
        m->ring[q] = alloc_aligned(r, 256);
        wr32(r, 0x4000 + 8 * (q - 1) + 4, m->ring[q] >> 32);
        wr32(r, 0x4000 + 8 * (q - 1), (uint32_t)m->ring[q]);
    }
    for (q = 0; q < 4; q++) {
        m->buf[q] = guest_alloc(&r->alloc, RSS_SLOTS * RX_BUF_SIZE);
        for (k = 0; k < RSS_SLOTS; k++) {
            write_desc(r, m->ring[q] + 16 * k, DescOwn |
                       (k == RSS_SLOTS - 1 ? RingEnd : 0) | RX_BUF_SIZE, 0,
                       m->buf[q] + k * RX_BUF_SIZE);
        }
    }
    wr32(r, RSS_CTRL_8125, 0x0f | 7 << 8 | 2 << 16);
    for (i = 0; i < 128; i += 4) {
        wr32(r, 0x4700 + i, (i % 4) | ((i + 1) % 4) << 8 |
             ((i + 2) % 4) << 16 | (uint32_t)((i + 3) % 4) << 24);
    }
    for (i = 0; i < 40; i += 4) {
        wr32(r, 0x4600 + i, key[i] | key[i + 1] << 8 | key[i + 2] << 16 |
             (uint32_t)key[i + 3] << 24);
    }
}

/* A TCP/IPv4 frame of rss_flows[i] to our address. */
static void rss_send(Rtl *r, unsigned i)
{
    uint8_t f[74] = { 0 };

    memcpy(f, rtl_mac, 6);
    memcpy(f + 6, peer_mac, 6);
    f[12] = 0x08;                       /* IPv4 */
    f[14] = 0x45;
    f[16] = 0;
    f[17] = 60;                         /* total length: 20 + 20 + 20 */
    f[22] = 64;
    f[23] = 6;                          /* TCP */
    memcpy(f + 26, rss_flows[i].src, 4);
    memcpy(f + 30, rss_flows[i].dst, 4);
    f[34] = rss_flows[i].sport >> 8;
    f[35] = rss_flows[i].sport & 0xff;
    f[36] = rss_flows[i].dport >> 8;
    f[37] = rss_flows[i].dport & 0xff;
    f[46] = 0x50;                       /* data offset 5 */
    sock_send_frame(r->sock, f, sizeof(f));
}

/* How many descriptors of queue q the chip has handed back. */
static unsigned rss_done(Rtl *r, const RssRings *m, unsigned q)
{
    unsigned done = 0, k;

    for (k = 0; k < RSS_SLOTS; k++) {
        done += !(qtest_readl(r->qts, m->ring[q] + 16 * k) & DescOwn);
    }
    return done;
}

/* QEMU reads the socket from its main loop: poll like a driver. */
static void rss_wait(Rtl *r, const RssRings *m, unsigned total)
{
    unsigned i, q, got = 0;

    for (i = 0; i < 2000 && got != total; i++) {
        step(r, 100 * 1000);
        got = 0;
        for (q = 0; q < 4; q++) {
            got += rss_done(r, m, q);
        }
        if (got != total) {
            g_usleep(1000);
        }
    }
    g_assert_cmpuint(got, ==, total);
}

static void test_8125b_rss(const void *data)
{
    Rtl r;
    RssRings m;
    unsigned want[4] = { 0 }, q, i;

    rtl_start(&r, data, NULL);
    step(&r, 1000 * 1000 * 1000);           /* link at 2500/full */
    rss_start(&r, &m);
    for (i = 0; i < G_N_ELEMENTS(rss_flows); i++) {
        rss_send(&r, i);
        want[rss_flows[i].hash % 4]++;
    }
    rss_wait(&r, &m, G_N_ELEMENTS(rss_flows));
    for (q = 0; q < 4; q++) {
        g_assert_cmpuint(rss_done(&r, &m, q), ==, want[q]);
    }
    rtl_stop(&r);
}

/* MSI-X table entry `e` aimed at a word of guest RAM (cleared), unmasked. */
static uint64_t msix_entry_to_ram(Rtl *r, uint16_t e, uint32_t data)
{
    uint64_t msg = guest_alloc(&r->alloc, 4);
    uint64_t at = r->dev->msix_table_off + e * PCI_MSIX_ENTRY_SIZE;

    qtest_writel(r->qts, msg, 0);
    qpci_io_writel(r->dev, r->dev->msix_table_bar,
                   at + PCI_MSIX_ENTRY_LOWER_ADDR, (uint32_t)msg);
    qpci_io_writel(r->dev, r->dev->msix_table_bar,
                   at + PCI_MSIX_ENTRY_UPPER_ADDR, msg >> 32);
    qpci_io_writel(r->dev, r->dev->msix_table_bar,
                   at + PCI_MSIX_ENTRY_DATA, data);
    qpci_io_writel(r->dev, r->dev->msix_table_bar,
                   at + PCI_MSIX_ENTRY_VECTOR_CTRL, 0);
    return msg;
}

/*
 * ISR v2 as Realtek's r8125 uses it with MSI-X (rtl8125_hw_set_isr_ver and
 * rtl8125_enable_hw_interrupt: INT_CFG0 bit 0, IMR_V2_SET 0xd0c with a bit
 * per RX queue; rtl8125_interrupt_msix: message n is MSI-X entry n, acked
 * by writing BIT(n) to ISR_V2 0xd04). Two RSS flows land on queues 0 and 3:
 * each frame's message goes to its queue's entry, nothing to the others,
 * and IntrStatus keeps no RxOK. A message masked through IMR_V2_CLEAR
 * 0xd00 waits in ISR_V2 and goes when IMR_V2_SET unmasks it.
 */
static void test_8125b_isr_v2(const void *data)
{
    enum { INT_CFG0_8125 = 0x34, IMR_V2_CLEAR = 0xd00, ISR_V2 = 0xd04,
           IMR_V2_SET = 0xd0c };
    const unsigned flow_a = 0, flow_b = 3;  /* queues 0 and 3 */
    Rtl r;
    RssRings m;
    uint64_t msg[4];
    uint16_t e;

    g_assert_cmpuint(rss_flows[flow_a].hash % 4, ==, 0);
    g_assert_cmpuint(rss_flows[flow_b].hash % 4, ==, 3);
    rtl_start(&r, data, NULL);
    step(&r, 1000 * 1000 * 1000);           /* link at 2500/full */
    qpci_msix_enable(r.dev);
    for (e = 0; e < 4; e++) {
        msg[e] = msix_entry_to_ram(&r, e, 0x8120 + e);
    }
    rss_start(&r, &m);
    wr8(&r, INT_CFG0_8125, 0x01);           /* INT_CFG0_ENABLE_8125 */
    wr32(&r, ISR_V2, 0xffffffff);
    wr32(&r, IMR_V2_SET, 0x0000000f);       /* ISRIMR_V2_ROK_Q0 << q */
    g_assert_cmphex(rd32(&r, IMR_V2_SET), ==, 0x0000000f);

    rss_send(&r, flow_a);
    rss_send(&r, flow_b);
    rss_wait(&r, &m, 2);
    g_assert_cmpuint(rss_done(&r, &m, 0), ==, 1);
    g_assert_cmpuint(rss_done(&r, &m, 3), ==, 1);
    g_assert_cmphex(qtest_readl(r.qts, msg[0]), ==, 0x8120);
    g_assert_cmphex(qtest_readl(r.qts, msg[1]), ==, 0);
    g_assert_cmphex(qtest_readl(r.qts, msg[2]), ==, 0);
    g_assert_cmphex(qtest_readl(r.qts, msg[3]), ==, 0x8123);
    g_assert_cmphex(rd32(&r, ISR_V2), ==, 1u << 0 | 1u << 3);
    g_assert_cmphex(rd32(&r, IntrStatus_8125) & RxOK, ==, 0);
    wr32(&r, ISR_V2, 1u << 0);              /* write 1 to clear */
    g_assert_cmphex(rd32(&r, ISR_V2), ==, 1u << 3);
    wr32(&r, ISR_V2, 1u << 3);

    /* Queue 3's message masked: its next frame pends, no message */
    qtest_writel(r.qts, msg[0], 0);
    qtest_writel(r.qts, msg[3], 0);
    wr32(&r, IMR_V2_CLEAR, 1u << 3);
    g_assert_cmphex(rd32(&r, IMR_V2_SET), ==, 0x00000007);
    rss_send(&r, flow_b);
    rss_wait(&r, &m, 3);
    g_assert_cmphex(rd32(&r, ISR_V2), ==, 1u << 3);
    g_assert_cmphex(qtest_readl(r.qts, msg[3]), ==, 0);
    wr32(&r, IMR_V2_SET, 1u << 3);
    g_assert_cmphex(qtest_readl(r.qts, msg[3]), ==, 0x8123);
    g_assert_cmphex(qtest_readl(r.qts, msg[0]), ==, 0);
    qpci_msix_disable(r.dev);
    rtl_stop(&r);
}

static void add(const char *name, void (*fn)(const void *))
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(chips); i++) {
        g_autofree char *path = g_strdup_printf("/rtl8168/%s/%s", chips[i].id,
                                                name);

        qtest_add_data_func(path, &chips[i], fn);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    add("pci", test_pci);
    add("properties", test_properties);
    add("bad-properties", test_bad_properties);
    add("reset-values", test_reset_values);
    add("intrstatus-w1c", test_intrstatus_w1c);
    add("cfg9346-lock", test_cfg9346_lock);
    add("txpoll-readback", test_txpoll_readback);
    add("phyar", test_phyar);
    add("tx-frame", test_tx_frame);
    add("rx-frame", test_rx_frame);
    add("dma-reentrancy", test_dma_reentrancy);
    add("msi", test_msi);
    add("intx", test_intx);
    add("timer", test_timer);
    add("migrate-tx-in-flight", test_migrate_tx_in_flight);
    add("migrate-hostile", test_migrate_hostile);
    add("fault-qmp", test_fault_qmp);
    add("fault-hmp", test_fault_hmp);
    add("aspm", test_aspm);
    qtest_add_data_func("/rtl8168/8168h/ocp", &chips[2], test_ocp);
    qtest_add_data_func("/rtl8168/8125b/ocp", &chip_8125b, test_ocp);
    qtest_add_data_func("/rtl8168/8125b/regs", &chip_8125b, test_8125b_regs);
    qtest_add_data_func("/rtl8168/8125b/tx-frame", &chip_8125b,
                        test_8125b_tx_frame);
    qtest_add_data_func("/rtl8168/8125b/msix", &chip_8125b, test_8125b_msix);
    qtest_add_data_func("/rtl8168/8125b/rss", &chip_8125b, test_8125b_rss);
    qtest_add_data_func("/rtl8168/8125b/isr-v2", &chip_8125b,
                        test_8125b_isr_v2);

    return g_test_run();
}
