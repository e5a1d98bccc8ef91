# SPDX-License-Identifier: MIT
"""What every vflipq plot shares: matplotlib without a display, one look,
labelled reference lines, and saving.  The plots are drawn on the host
from the CSV/text files the guest writes (Debian's python3-matplotlib)."""
import matplotlib

matplotlib.use("Agg")  # no display on the host or in CI
import matplotlib.pyplot as plt  # noqa: E402

# Colour-blind safe (Okabe-Ito), in the order series are drawn.
COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
          "#000000"]

plt.rcParams.update({
    "figure.dpi": 100,
    "savefig.dpi": 110,
    "font.size": 10,
    "axes.titlesize": 12,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "legend.fontsize": 9,
    "legend.framealpha": 0.9,
})


def hline(ax, y, label, color="black", style="--"):
    """A labelled horizontal reference line: in the legend and written at
    the right end of the line itself."""
    ax.axhline(y, color=color, linestyle=style, linewidth=1.2, label=label)
    ax.annotate(label, xy=(1, y), xycoords=("axes fraction", "data"),
                xytext=(-4, 3), textcoords="offset points", ha="right",
                va="bottom", fontsize=8, color=color)


def vline(ax, x, label, color="black", style="--"):
    """A vertical reference line, named in the legend (vertical text would
    collide with neighbouring lines)."""
    ax.axvline(x, color=color, linestyle=style, linewidth=1.2, label=label)


def save(fig, path):
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    print("plot: %s" % path)


def figure(width, height, rows=1, **kw):
    return plt.subplots(rows, 1, figsize=(width, height), squeeze=False, **kw)
