"""HF transformers model families under ``prepare_debug``: held-out Dynamo bytecode.

Tiny, randomly initialised models of many families (no download), and a few of torch's own
modules and optimizers (``torch.*`` rows), each compiled and run under plain ``torch.compile``
and then inside ``unveil.prepare_debug``. Per family and mode
(a forward on three sequence lengths; forward and backward on two, ``train``; a forward with
a graph break in a layer's forward hook, ``graph_break``, with ``generate`` too for the
decoder-only ones; ``generate`` for the decoder-only ones): whether the
results are bit for bit plain torch.compile's, the cache entries dumped, how many fell back
to Dynamo's own bytecode (with the reason), errors in the index, and ``.py`` files of the dump
that do not compile. Exit status 1 when any row is not clean.

    .venv/bin/python bench/hf_families.py                      # every family, every mode
    .venv/bin/python bench/hf_families.py --family t5 --mode forward --backend aot_eager
"""
import argparse
import os
import sys
import warnings

import torch
import transformers as T

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dumpcheck import HEADER, compare_dump, print_row  # noqa: E402

V = 97  # vocabulary size
DECODER = dict(vocab_size=V, hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
               num_key_value_heads=2, max_position_embeddings=64, pad_token_id=0, bos_token_id=1, eos_token_id=2)

#: family -> (model class, config); the decoder-only ones (a causal LM head) also run ``generate``
FAMILIES = {
    "bert": (T.BertModel, T.BertConfig(vocab_size=V, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                                       intermediate_size=64, max_position_embeddings=64)),
    "roberta": (T.RobertaModel, T.RobertaConfig(vocab_size=V, hidden_size=32, num_hidden_layers=2,
                                                num_attention_heads=2, intermediate_size=64,
                                                max_position_embeddings=70)),
    "distilbert": (T.DistilBertModel, T.DistilBertConfig(vocab_size=V, dim=32, n_layers=2, n_heads=2,
                                                         hidden_dim=64, max_position_embeddings=64)),
    "t5": (T.T5Model, T.T5Config(vocab_size=V, d_model=32, d_kv=16, d_ff=64, num_layers=2, num_heads=2,
                                 decoder_start_token_id=0)),
    "bart": (T.BartModel, T.BartConfig(vocab_size=V, d_model=32, encoder_layers=1, decoder_layers=1,
                                       encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=64,
                                       decoder_ffn_dim=64, max_position_embeddings=64)),
    "vit": (T.ViTModel, T.ViTConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                                    intermediate_size=64, image_size=16, patch_size=4)),
    "mistral": (T.MistralForCausalLM, T.MistralConfig(**DECODER)),
    "qwen2": (T.Qwen2ForCausalLM, T.Qwen2Config(**DECODER)),
    "phi3": (T.Phi3ForCausalLM, T.Phi3Config(**DECODER)),
    "gemma": (T.GemmaForCausalLM, T.GemmaConfig(head_dim=8, **DECODER)),
    "gpt_neox": (T.GPTNeoXForCausalLM, T.GPTNeoXConfig(vocab_size=V, hidden_size=32, intermediate_size=64,
                                                      num_hidden_layers=2, num_attention_heads=4,
                                                      max_position_embeddings=64, bos_token_id=1, eos_token_id=2)),
    "opt": (T.OPTForCausalLM, T.OPTConfig(vocab_size=V, hidden_size=32, ffn_dim=64, num_hidden_layers=2,
                                          num_attention_heads=2, max_position_embeddings=64,
                                          word_embed_proj_dim=32, pad_token_id=0, bos_token_id=1,
                                          eos_token_id=2)),
    "falcon": (T.FalconForCausalLM, T.FalconConfig(vocab_size=V, hidden_size=32, num_hidden_layers=2,
                                                   num_attention_heads=4, bos_token_id=1, eos_token_id=2)),
    "gpt_bigcode": (T.GPTBigCodeForCausalLM, T.GPTBigCodeConfig(vocab_size=V, n_embd=32, n_layer=2, n_head=2,
                                                               n_positions=64, bos_token_id=1, eos_token_id=2)),
    "albert": (T.AlbertModel, T.AlbertConfig(vocab_size=V, embedding_size=16, hidden_size=32, num_hidden_layers=2,
                                             num_attention_heads=2, intermediate_size=64,
                                             max_position_embeddings=64)),
    "electra": (T.ElectraModel, T.ElectraConfig(vocab_size=V, embedding_size=16, hidden_size=32,
                                                num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                                                max_position_embeddings=64)),
    "deberta_v2": (T.DebertaV2Model, T.DebertaV2Config(vocab_size=V, hidden_size=32, num_hidden_layers=2,
                                                       num_attention_heads=2, intermediate_size=64,
                                                       max_position_embeddings=64, relative_attention=True,
                                                       position_buckets=8, pos_att_type=["p2c", "c2p"])),
    "xlnet": (T.XLNetModel, T.XLNetConfig(vocab_size=V, d_model=32, n_layer=2, n_head=2, d_inner=64)),
    "funnel": (T.FunnelModel, T.FunnelConfig(vocab_size=V, d_model=32, n_head=2, d_head=16, d_inner=64,
                                             block_sizes=[1, 1], num_decoder_layers=1)),
    "mbart": (T.MBartModel, T.MBartConfig(vocab_size=V, d_model=32, encoder_layers=1, decoder_layers=1,
                                          encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=64,
                                          decoder_ffn_dim=64, max_position_embeddings=64)),
    "pegasus": (T.PegasusModel, T.PegasusConfig(vocab_size=V, d_model=32, encoder_layers=1, decoder_layers=1,
                                                encoder_attention_heads=2, decoder_attention_heads=2,
                                                encoder_ffn_dim=64, decoder_ffn_dim=64, max_position_embeddings=64)),
    "swin": (T.SwinModel, T.SwinConfig(image_size=16, patch_size=2, embed_dim=16, depths=[1, 1], num_heads=[2, 2],
                                       window_size=2)),
    "convnext": (T.ConvNextModel, T.ConvNextConfig(num_stages=2, hidden_sizes=[8, 16], depths=[1, 1], image_size=16)),
    "bloom": (T.BloomForCausalLM, T.BloomConfig(vocab_size=V, hidden_size=32, n_layer=2, n_head=4,
                                                bos_token_id=1, eos_token_id=2)),
    "gptj": (T.GPTJForCausalLM, T.GPTJConfig(vocab_size=V, n_embd=32, n_layer=2, n_head=4, rotary_dim=4,
                                             n_positions=64, bos_token_id=1, eos_token_id=2)),
    "codegen": (T.CodeGenForCausalLM, T.CodeGenConfig(vocab_size=V, n_embd=32, n_layer=2, n_head=4, rotary_dim=4,
                                                      n_positions=64, n_ctx=64, bos_token_id=1, eos_token_id=2)),
    "mamba": (T.MambaForCausalLM, T.MambaConfig(vocab_size=V, hidden_size=32, state_size=4, num_hidden_layers=2,
                                                bos_token_id=1, eos_token_id=2, pad_token_id=0)),
    "mixtral": (T.MixtralForCausalLM, T.MixtralConfig(num_local_experts=4, num_experts_per_tok=2, **DECODER)),
    "qwen2_moe": (T.Qwen2MoeForCausalLM, T.Qwen2MoeConfig(num_experts=4, num_experts_per_tok=2,
                                                          moe_intermediate_size=32, shared_expert_intermediate_size=32,
                                                          **DECODER)),
    "gemma2": (T.Gemma2ForCausalLM, T.Gemma2Config(head_dim=8, sliding_window=4, **DECODER)),
    "cohere": (T.CohereForCausalLM, T.CohereConfig(**DECODER)),
    "starcoder2": (T.Starcoder2ForCausalLM, T.Starcoder2Config(**DECODER)),
    "stablelm": (T.StableLmForCausalLM, T.StableLmConfig(**DECODER)),
}
ENCODER_DECODER = ("t5", "bart", "mbart", "pegasus")
IMAGES = ("vit", "swin", "convnext")


def build(family):
    torch.manual_seed(0)
    cls, cfg = FAMILIES[family]
    return cls(cfg).eval()


def inputs(family, n):
    g = torch.Generator().manual_seed(n)
    if family in IMAGES:
        return dict(pixel_values=torch.randn(1, 3, 16, 16, generator=g))
    ids = torch.randint(3, V, (2, n), generator=g)
    kw = dict(input_ids=ids, attention_mask=torch.ones_like(ids))
    if family in ENCODER_DECODER:
        kw["decoder_input_ids"] = ids[:, :3]
    return kw


def tensors(out):
    return [t for t in (out.to_tuple() if hasattr(out, "to_tuple") else out) if isinstance(t, torch.Tensor)]


def forward(model, family, backend):
    compiled = torch.compile(model, backend=backend)
    results = []
    with torch.no_grad():
        for n in (5, 7, 9):
            results.extend(tensors(compiled(**inputs(family, n))))
    return results


def generate(model, family, backend):
    model.forward = torch.compile(model.forward, backend=backend)
    with torch.no_grad():
        return [model.generate(inputs(family, 4)["input_ids"][:1], max_new_tokens=4, do_sample=False,
                               pad_token_id=0)]


def train(model, family, backend):
    """Forward and backward on two lengths (dropout off): the losses and every gradient."""
    model.train()
    for module in model.modules():
        if isinstance(getattr(module, "p", None), float):
            module.p = 0.0  # (nn.Dropout: results comparable bit for bit)
    compiled = torch.compile(model, backend=backend)
    results = []
    for n in (5, 7):
        loss = sum(t.float().sum() for t in tensors(compiled(**inputs(family, n))))
        loss.backward()
        results.append(loss.detach())
    return results + [p.grad.clone() for p in model.parameters() if p.grad is not None]


def graph_break(model, family, backend):
    """A forward on two lengths with a graph break inside the model: a forward hook on its first
    layer prints a value read from a tensor (the printed text is part of the results)."""
    layers = [m for name, m in model.named_modules()
              if name.rsplit(".", 2)[-2:] in (["layers", "0"], ["layer", "0"], ["block", "0"], ["h", "0"],
                                             ["albert_layers", "0"])]
    printed = []

    def hook(module, args, out):
        t = out[0] if isinstance(out, tuple) else out
        if float(t.float().abs().sum()) > 0:  # (a Python float from a tensor: Dynamo breaks the graph)
            printed.append(round(float(t.float().sum()), 3))

    layers[0].register_forward_hook(hook)
    results = forward(model, family, backend)
    if type(model).__name__.endswith("ForCausalLM"):  # and generate() through the same break
        results += generate(model, family, backend)
    return results + [torch.tensor(printed)]


MODES = {"forward": forward, "generate": generate, "train": train, "graph_break": graph_break}


# torch's own modules and optimizers, run by the same rows (family "torch.<name>", mode "run")
def _seeded(k, *shape):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(k))


def _batchnorm_train(backend):
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4), torch.nn.ReLU()).train()
    f = torch.compile(m, backend=backend)
    out = [f(_seeded(k, 2, 3, 8, 8)) for k in range(3)]
    return out + [m[1].running_mean.clone(), m[1].running_var.clone(), m[1].num_batches_tracked.clone()]


def _attention_decoder(backend):
    torch.manual_seed(0)
    layer = torch.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
    f = torch.compile(torch.nn.TransformerDecoder(layer, 2).eval(), backend=backend)
    return [f(_seeded(n, 2, n, 8), _seeded(n + 1, 2, n, 8),
              tgt_mask=torch.nn.Transformer.generate_square_subsequent_mask(n)) for n in (3, 5)]


def _optimizer(cls, **options):
    """Three compiled ``step()`` calls of ``cls`` on a small linear layer (an embedding with
    sparse gradients for SparseAdam; LBFGS steps with its closure)."""
    def run(backend):
        torch.manual_seed(0)
        if cls is torch.optim.SparseAdam:
            m = torch.nn.Embedding(10, 3, sparse=True)
            loss = lambda k: m(torch.tensor([k, k + 2, 7])).pow(2).sum()  # noqa: E731
        else:
            m = torch.nn.Linear(4, 3)
            loss = lambda k: m(_seeded(k, 5, 4)).pow(2).sum()  # noqa: E731
        # (Muon takes matrices only)
        params = [m.weight] if cls.__name__ == "Muon" else list(m.parameters())
        opt = cls(params, **options)
        step = torch.compile(opt.step, backend=backend)
        for k in range(3):
            opt.zero_grad()
            if cls is torch.optim.LBFGS:
                def closure(k=k):
                    opt.zero_grad()
                    value = loss(k)
                    value.backward()
                    return value
                step(closure)
            else:
                loss(k).backward()
                step()
        return [p.detach().clone() for p in m.parameters()]
    return run


def _every_optimizer():
    """Every optimizer class ``torch.optim`` has, by name (options where the defaults do not run)."""
    options = {"SGD": dict(lr=0.1, momentum=0.9, nesterov=True), "Adam": dict(lr=0.01)}
    found = sorted((name, cls) for name, cls in vars(torch.optim).items()
                   if isinstance(cls, type) and issubclass(cls, torch.optim.Optimizer) and cls is not torch.optim.Optimizer)
    return {"torch.optim.%s" % name: _optimizer(cls, **options.get(name, {})) for name, cls in found}


TORCH_CASES = {"torch.batchnorm_train": _batchnorm_train, "torch.attention_decoder": _attention_decoder,
               **_every_optimizer()}


def row(family, mode, backend):
    """One family and mode: a dict of what the dump held and whether the results agree."""
    if family in TORCH_CASES:
        def workload():
            return TORCH_CASES[family](backend)
    else:
        def workload():
            return MODES[mode](build(family), family, backend)
    return compare_dump(workload, "hf_%s" % family)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--family", action="append", choices=sorted(FAMILIES) + sorted(TORCH_CASES))
    ap.add_argument("--mode", action="append", choices=sorted(MODES))
    ap.add_argument("--backend", default="eager")
    args = ap.parse_args()
    warnings.simplefilter("ignore")  # (torch's and transformers' own, in plain runs too)
    print("torch %s, transformers %s, Python %d.%d, backend %s" % (
        torch.__version__, T.__version__, sys.version_info[0], sys.version_info[1], args.backend))
    print(HEADER % ("family", "mode", "same", "entries", "fallbacks", "errors", "bad .py"))
    clean = True
    for family in args.family or list(FAMILIES) + list(TORCH_CASES):
        for mode in ["run"] if family in TORCH_CASES else args.mode or MODES:
            if mode == "generate" and not FAMILIES[family][0].__name__.endswith("ForCausalLM"):
                continue
            try:
                r = row(family, mode, args.backend)
            except Exception as e:  # noqa: BLE001 - a family that does not run is a row too
                print("%-28s %-10s does not run: %s: %s" % (family, mode, type(e).__name__, str(e)[:100]))
                clean = False
                continue
            clean = print_row(family, mode, r) and clean
    sys.exit(0 if clean else 1)


if __name__ == "__main__":
    main()
