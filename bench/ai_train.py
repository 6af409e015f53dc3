"""Train the model of the hidden hands (:mod:`engine.ai.cardmodel`) on expert self-play.

    OPENBLAS_NUM_THREADS=1 nice -n 19 python -m bench.ai_train [--games N] [--seed S]
        [--data PATH] [--epochs E] [--hidden H] [--out engine/ai/cardmodel_weights.py]

1. **Data** (:func:`generate`): ``N`` deals from seed ``S`` (default 100000 on, far from the
   deals bench.ai_infer and the arenas use), each played by the expert policy in all six
   seats; at a third of the play-phase decisions with more than one legal action (chosen by
   a seeded draw) the deciding seat's view is a sample — the model's features of its
   public history and own cards, and the true rank counts of each other seat. Saved to
   ``--data`` (a .npz under /tmp by default: not in git), and read from there when it
   exists for the same arguments.
2. **Training** (:func:`train`): a one-hidden-layer network, softmax over the other seats
   for each rank (offset by log card counts, so zero logits are a random split), the
   cross-entropy of the true cards; Adam, minibatches, a fixed seed; the last deals'
   samples (a tenth) held out. NumPy only, one thread.
3. **The weights module**: ``--out`` gets the weights (float32 in base64), the shapes, the
   arguments and seed, the data's size, and the model's outputs on fixed positions, which
   tests/ai/test_cardmodel.py checks the shipped weights still give.

The same arguments give the same weights on the same machine (one BLAS thread, a seeded
order); a run prints its data size, its losses and its time.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread: reproducible, and polite

import argparse  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from engine.ai import make_player  # noqa: E402
from engine.ai.cardmodel import (  # noqa: E402
    FEATURES,
    CardModel,
    encode,
    features,
    offsets,
    softmax_seats,
)
from engine.ai.world import UnfitObservation, rebuild_with_evidence  # noqa: E402
from engine.cards import NUM_RANKS  # noqa: E402
from engine.game import Game, Options, Phase  # noqa: E402
from engine.observation import Observation  # noqa: E402

ALL = 1 << 30
CHECK_DEALS = (7, 8, 9)  # the fixed positions whose outputs the weights module records
CHECK_EVERY = 40  # every 40th play decision of those deals


def samples_of(seed: int, rate: float) -> list[tuple[Observation, list[list[int]], int]]:
    """(observation, every seat's true counts, deal) at a ``rate`` share of the
    play-phase decisions with more than one legal action of deal ``seed``, all expert."""
    rng = random.Random(seed)
    game = Game.from_deal(seed, Options())
    players = [make_player("expert", s) for s in range(6)]
    out = []
    while game.phase not in (Phase.FINISHED, Phase.VOID):
        for seat in list(game.to_act):
            if seat not in game.to_act:
                continue
            obs = game.observe(seat)
            if game.phase == Phase.PLAY and len(obs.legal_actions) > 1 and rng.random() < rate:
                out.append((obs, [list(c) for c in game.counts], seed))
            game.apply(players[seat].act(obs))
    return out


def sample_arrays(
    obs: Observation, true: list[list[int]]
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(features, offsets, the other seats' true counts by distance) or None if the view
    cannot be rebuilt."""
    try:
        _, evidence = rebuild_with_evidence(obs, random.Random(0), ALL)
    except UnfitObservation:
        return None
    y = np.asarray([true[(obs.seat + 1 + i) % 6] for i in range(5)], np.uint8)
    return features(obs, evidence), offsets(obs), y


def generate(games: int, seed: int, rate: float = 1 / 3) -> dict[str, np.ndarray]:
    xs, offs, ys, deals = [], [], [], []
    for deal in range(seed, seed + games):
        for obs, true, d in samples_of(deal, rate):
            arrays = sample_arrays(obs, true)
            if arrays is not None:
                xs.append(arrays[0])
                offs.append(arrays[1])
                ys.append(arrays[2])
                deals.append(d)
    return {
        "x": np.stack(xs).astype(np.float32),
        "off": np.stack(offs).astype(np.float32),
        "y": np.stack(ys),
        "deal": np.asarray(deals, np.int64),
    }


def loss_and_grads(
    params: dict[str, np.ndarray],
    x: np.ndarray,
    off: np.ndarray,
    y: np.ndarray,
    l2: float,
) -> tuple[float, dict[str, np.ndarray]]:
    """The mean cross-entropy per hidden card (plus ``l2``) and its gradients."""
    n = len(x)
    z1 = x @ params["w1"] + params["b1"]
    h = np.maximum(z1, 0)
    logits = (h @ params["w2"] + params["b2"]).reshape(n, 5, NUM_RANKS) + off
    top = np.max(logits, axis=1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(logits - top)
    total = e.sum(axis=1, keepdims=True)
    p = e / np.where(total > 0, total, 1)
    cards = y.sum(axis=1, keepdims=True)  # unseen cards of each rank
    logp = np.where(y > 0, np.log(np.maximum(p, 1e-12)), 0)
    count = max(1.0, float(y.sum()))
    loss = -float((y * logp).sum()) / count
    dlogits = (p * cards - y) / count  # d loss / d logits (softmax over seats)
    dlogits = np.where(np.isfinite(off), dlogits, 0).reshape(n, -1)
    grads = {
        "w2": h.T @ dlogits + l2 * params["w2"],
        "b2": dlogits.sum(axis=0),
    }
    dh = (dlogits @ params["w2"].T) * (z1 > 0)
    grads["w1"] = x.T @ dh + l2 * params["w1"]
    grads["b1"] = dh.sum(axis=0)
    return loss, grads


def uniform_loss(off: np.ndarray, y: np.ndarray) -> float:
    """The cross-entropy of a random split (zero logits), for scale."""
    p = softmax_seats(off)
    logp = np.where(y > 0, np.log(np.maximum(p, 1e-12)), 0)
    return -float((y * logp).sum()) / max(1.0, float(y.sum()))


def train(
    data: dict[str, np.ndarray],
    hidden: int,
    epochs: int,
    seed: int,
    lr: float = 2e-3,
    batch: int = 256,
    l2: float = 1e-5,
) -> tuple[dict[str, np.ndarray], dict[str, float]]:
    """The weights (with the input's scaling) and the losses: train and held out."""
    rng = np.random.default_rng(seed)
    deals = np.unique(data["deal"])
    held = np.isin(data["deal"], deals[-max(1, len(deals) // 10) :])
    x_all = data["x"].astype(np.float32)
    mean = x_all[~held].mean(axis=0)
    std = x_all[~held].std(axis=0)
    scale = np.where(std > 1e-6, 1 / np.maximum(std, 1e-6), 0).astype(np.float32)
    x_all = (x_all - mean) * scale
    off_all, y_all = data["off"], data["y"].astype(np.float32)
    tr = np.flatnonzero(~held)
    te = np.flatnonzero(held)
    params = {
        "w1": (rng.standard_normal((FEATURES, hidden)) * np.sqrt(2 / FEATURES)).astype(np.float32),
        "b1": np.zeros(hidden, np.float32),
        "w2": (rng.standard_normal((hidden, 5 * NUM_RANKS)) * 0.01).astype(np.float32),
        "b2": np.zeros(5 * NUM_RANKS, np.float32),
    }
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v2 = {k: np.zeros_like(v) for k, v in params.items()}
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(tr)
        total = 0.0
        for i in range(0, len(order), batch):
            idx = np.sort(order[i : i + batch])
            loss, grads = loss_and_grads(params, x_all[idx], off_all[idx], y_all[idx], l2)
            total += loss * len(idx)
            step += 1
            rate = lr * (0.5 ** (epoch / max(1, epochs / 3)))
            for k in params:
                m[k] = 0.9 * m[k] + 0.1 * grads[k]
                v2[k] = 0.999 * v2[k] + 0.001 * grads[k] ** 2
                mh = m[k] / (1 - 0.9**step)
                vh = v2[k] / (1 - 0.999**step)
                params[k] = (params[k] - rate * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        test, _ = loss_and_grads(params, x_all[te], off_all[te], y_all[te], 0.0)
        print(f"  epoch {epoch + 1}: train {total / len(tr):.4f}, held out {test:.4f}", flush=True)
    losses = {
        "train": loss_and_grads(params, x_all[tr], off_all[tr], y_all[tr], 0.0)[0],
        "held_out": loss_and_grads(params, x_all[te], off_all[te], y_all[te], 0.0)[0],
        "held_out_uniform": uniform_loss(off_all[te], y_all[te]),
        "train_samples": float(len(tr)),
        "held_out_samples": float(len(te)),
    }
    weights = dict(params)
    weights["mean"] = mean.astype(np.float32)
    weights["scale"] = scale
    return weights, losses


def check_positions() -> list[tuple[Observation, list[list[int]], int]]:
    """The fixed positions whose outputs the weights module records."""
    out = []
    for deal in CHECK_DEALS:
        out += samples_of(deal, 1.0)[::CHECK_EVERY]
    return out


def write_module(
    path: Path, weights: dict[str, np.ndarray], meta: dict[str, object], check: list[float]
) -> None:
    blob = encode(weights)
    lines = [blob[i : i + 96] for i in range(0, len(blob), 96)]
    shapes = {k: tuple(int(n) for n in v.shape) for k, v in weights.items()}
    text = [
        '"""The weights of the model of the hidden hands (:mod:`engine.ai.cardmodel`), written',
        "by ``python -m bench.ai_train`` (do not edit: train again). ``META``: how they were",
        "trained; ``CHECK``: the model's probabilities on the fixed positions of",
        '``bench.ai_train.check_positions``, at training time (tests/ai/test_cardmodel.py)."""',
        "",
        "META = {",
        *[f'    "{k}": {v!r},' for k, v in meta.items()],
        "}",
        "SHAPES = {",
        *[f'    "{k}": {v!r},' for k, v in shapes.items()],
        "}",
        "CHECK = [",
        *[f"    {round(c, 6)!r}," for c in check],
        "]",
        "BLOB = (",
        *[f'    "{line}"' for line in lines],
        ")",
        "",
    ]
    path.write_text("\n".join(text), encoding="utf-8")


def check_outputs(model: CardModel) -> list[float]:
    """The model's probabilities on the fixed positions, flat."""
    out: list[float] = []
    for obs, true, _ in check_positions():
        arrays = sample_arrays(obs, true)
        assert arrays is not None
        x, off, _ = arrays
        out += [float(v) for v in softmax_seats(model.logits(x) + off).reshape(-1)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1500, help="deals of self-play")
    parser.add_argument("--seed", type=int, default=100000, help="the first deal's seed")
    parser.add_argument("--data", default="", help="the samples' .npz (default under /tmp)")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--train-seed", type=int, default=55)
    parser.add_argument("--out", default="engine/ai/cardmodel_weights.py")
    args = parser.parse_args()
    data_path = Path(args.data or f"/tmp/gouji-cards/data-{args.seed}-{args.games}.npz")
    t = time.process_time()
    if data_path.exists():
        data = dict(np.load(data_path))
        print(f"data: {data_path} ({len(data['x'])} samples)")
    else:
        data = generate(args.games, args.seed)
        data_path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(data_path, x=data["x"], off=data["off"], y=data["y"], deal=data["deal"])
        print(
            f"data: {len(data['x'])} samples of {args.games} deals in {time.process_time() - t:.0f} s CPU"
        )
    size = data_path.stat().st_size
    t = time.process_time()
    weights, losses = train(data, args.hidden, args.epochs, args.train_seed)
    seconds = time.process_time() - t
    print(f"trained in {seconds:.0f} s CPU: {losses}")
    meta: dict[str, object] = {
        "games": args.games,
        "seed": args.seed,
        "epochs": args.epochs,
        "hidden": args.hidden,
        "train_seed": args.train_seed,
        "samples": len(data["x"]),
        "data_bytes": size,
        "train_seconds": round(seconds),
        **{k: round(v, 4) for k, v in losses.items()},
    }
    out = Path(args.out)
    write_module(out, weights, meta, check_outputs(CardModel(weights)))
    print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
