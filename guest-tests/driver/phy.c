// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtl8168sim: MDIO through PHYAR (0x60), on the RTL8168h through GPHY_OCP (0xb8, ocp.c:
 * r8168g_mdio_read/write, as r8169 for VER_40 and later), and a minimal own link handling
 * (no phylib):
 * autonegotiation is (re)started on open, and every LinkChg interrupt re-reads BMSR and
 * the negotiated abilities to set the carrier, speed and duplex.
 */
#include <linux/delay.h>
#include <linux/ethtool.h>
#include <linux/mii.h>
#include <linux/netdevice.h>

#include "rtl8168sim.h"

/* r8169_mdio_read/write: the flag goes high when a read is done, low when a write is */
static int __rtl_mdio_read(struct rtl_priv *tp, int reg)
{
	int i, v;

	rtl_w32(tp, REG_PHYAR, (reg & 0x1f) << 16);
	for (i = 0; i < 20; i++) {
		udelay(25);
		v = rtl_r32(tp, REG_PHYAR);
		if (v & PHYAR_FLAG) {
			udelay(20);
			return v & 0xffff;
		}
	}
	return -ETIMEDOUT;
}

static int __rtl_mdio_write(struct rtl_priv *tp, int reg, u16 val)
{
	int i;

	rtl_w32(tp, REG_PHYAR, PHYAR_FLAG | (reg & 0x1f) << 16 | val);
	for (i = 0; i < 20; i++) {
		udelay(25);
		if (!(rtl_r32(tp, REG_PHYAR) & PHYAR_FLAG)) {
			udelay(20);
			return 0;
		}
	}
	return -ETIMEDOUT;
}

int rtl_mdio_read(struct rtl_priv *tp, int reg)
{
	int v;

	mutex_lock(&tp->phy_lock);
	v = rtl_phy_ocp(tp) ? r8168g_mdio_read(tp, reg) : __rtl_mdio_read(tp, reg);
	mutex_unlock(&tp->phy_lock);
	return v;
}

int rtl_mdio_write(struct rtl_priv *tp, int reg, u16 val)
{
	int ret;

	mutex_lock(&tp->phy_lock);
	ret = rtl_phy_ocp(tp) ? r8168g_mdio_write(tp, reg, val) : __rtl_mdio_write(tp, reg, val);
	mutex_unlock(&tp->phy_lock);
	return ret;
}

int rtl_phy_probe(struct rtl_priv *tp)
{
	int id1 = rtl_mdio_read(tp, MII_PHYSID1);
	int id2 = rtl_mdio_read(tp, MII_PHYSID2);

	if (id1 < 0 || id2 < 0 || (id1 == 0xffff && id2 == 0xffff)) {
		dev_err(&tp->pdev->dev, "no PHY answers through %s\n",
			rtl_phy_ocp(tp) ? "GPHY_OCP" : "PHYAR");
		return -ENODEV;
	}
	dev_info(&tp->pdev->dev, "PHY ID %04x:%04x\n", id1, id2);
	tp->speed = SPEED_UNKNOWN;
	tp->duplex = DUPLEX_UNKNOWN;
	return 0;
}

/* power up, advertise 10/100/1000, restart autonegotiation; LinkChg reports the result */
void rtl_phy_start(struct rtl_priv *tp)
{
	int bmcr;

	/* r8169 rtl8169_up -> rtl8169_init_phy -> r8169_hw_phy_config (VER_46) */
	if (tp->g_class)
		rtl8168h_hw_phy_config(tp);
	bmcr = rtl_mdio_read(tp, MII_BMCR);

	if (bmcr < 0) {
		netdev_warn(tp->dev, "PHY does not answer\n");
		return;
	}
	rtl_mdio_write(tp, MII_ADVERTISE, ADVERTISE_ALL | ADVERTISE_CSMA | ADVERTISE_PAUSE_CAP |
					      ADVERTISE_PAUSE_ASYM);
	rtl_mdio_write(tp, MII_CTRL1000, ADVERTISE_1000FULL | ADVERTISE_1000HALF);
	bmcr &= ~BMCR_PDOWN;
	rtl_mdio_write(tp, MII_BMCR, bmcr | BMCR_ANENABLE | BMCR_ANRESTART);
	/* a link that is already up raises no LinkChg: look once now */
	rtl_link_check(tp);
}

void rtl_phy_stop(struct rtl_priv *tp)
{
	int bmcr = rtl_mdio_read(tp, MII_BMCR);

	if (bmcr >= 0)
		rtl_mdio_write(tp, MII_BMCR, bmcr | BMCR_PDOWN);
}

void rtl_link_check(struct rtl_priv *tp)
{
	struct net_device *dev = tp->dev;
	int bmsr, adv, lpa, ctrl1000, stat1000;
	bool up;

	rtl_mdio_read(tp, MII_BMSR); /* the link bit latches low: read twice */
	bmsr = rtl_mdio_read(tp, MII_BMSR);
	up = bmsr >= 0 && (bmsr & BMSR_LSTATUS) && (bmsr & BMSR_ANEGCOMPLETE);
	if (up) {
		adv = rtl_mdio_read(tp, MII_ADVERTISE);
		lpa = rtl_mdio_read(tp, MII_LPA);
		ctrl1000 = rtl_mdio_read(tp, MII_CTRL1000);
		stat1000 = rtl_mdio_read(tp, MII_STAT1000);
		if (ctrl1000 >= 0 && stat1000 >= 0 &&
		    (ctrl1000 & ADVERTISE_1000FULL) && (stat1000 & LPA_1000FULL)) {
			tp->speed = SPEED_1000;
			tp->duplex = DUPLEX_FULL;
		} else if (ctrl1000 >= 0 && stat1000 >= 0 &&
			   (ctrl1000 & ADVERTISE_1000HALF) && (stat1000 & LPA_1000HALF)) {
			tp->speed = SPEED_1000;
			tp->duplex = DUPLEX_HALF;
		} else {
			int common = (adv < 0 || lpa < 0) ? 0 : mii_nway_result(adv & lpa);

			tp->speed = common & (LPA_100FULL | LPA_100HALF) ? SPEED_100 : SPEED_10;
			tp->duplex = common & (LPA_100FULL | LPA_10FULL) ? DUPLEX_FULL : DUPLEX_HALF;
		}
		if (rtl_phy_ocp(tp))
			rtl8168g_read_physr(tp); /* realtek.c rtlgen_read_status */
	}
	if (up && !tp->link_up) {
		tp->link_up = true;
		netif_carrier_on(dev);
		netdev_info(dev, "link up, %d Mbit/s, %s duplex\n", tp->speed,
			    tp->duplex == DUPLEX_FULL ? "full" : "half");
	} else if (!up && tp->link_up) {
		tp->link_up = false;
		tp->speed = SPEED_UNKNOWN;
		tp->duplex = DUPLEX_UNKNOWN;
		netif_carrier_off(dev);
		netdev_info(dev, "link down\n");
	}
}

void rtl_link_work(struct work_struct *work)
{
	struct rtl_priv *tp = container_of(work, struct rtl_priv, link_work);

	if (netif_running(tp->dev))
		rtl_link_check(tp);
}
