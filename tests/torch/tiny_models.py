"""The tiny, randomly initialised HF transformers models (no download) that the real-model
tests (test_transformers.py) and benchmarks (bench/models.py, bench/overhead.py) compile.

Each workload takes a backend and returns (its results as a list of tensors, the compiled
object)."""
import re

import torch
import transformers

VOCAB = 64


def tiny_gpt2():
    torch.manual_seed(0)
    cfg = transformers.GPT2Config(vocab_size=VOCAB, n_positions=32, n_embd=32, n_layer=2, n_head=2,
                                  bos_token_id=0, eos_token_id=0, attn_pdrop=0.0, embd_pdrop=0.0,
                                  resid_pdrop=0.0)
    return transformers.GPT2LMHeadModel(cfg)


def tiny_llama():
    torch.manual_seed(0)
    cfg = transformers.LlamaConfig(vocab_size=VOCAB, hidden_size=32, intermediate_size=64,
                                   num_hidden_layers=2, num_attention_heads=2, num_key_value_heads=2,
                                   max_position_embeddings=64, bos_token_id=0, eos_token_id=1)
    return transformers.LlamaForCausalLM(cfg).eval()


def tiny_bart():
    """An encoder-decoder: its output (an OrderedDict subclass) holds a cache object made inside
    the forward whose ``is_updated`` is a dict display (Dynamo replays its attributes)."""
    torch.manual_seed(0)
    cfg = transformers.BartConfig(vocab_size=VOCAB, d_model=32, encoder_layers=1, decoder_layers=1,
                                  encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=64,
                                  decoder_ffn_dim=64, max_position_embeddings=64, dropout=0.0)
    return transformers.BartModel(cfg).eval()


def ids():
    return torch.randint(0, VOCAB, (2, 8), generator=torch.Generator().manual_seed(1))


def gpt2_forward(backend):
    compiled = torch.compile(tiny_gpt2().eval(), backend=backend)
    with torch.no_grad():
        return [compiled(ids()).logits], compiled


def bart_forward(backend):
    compiled = torch.compile(tiny_bart(), backend=backend)
    x = ids()
    with torch.no_grad():
        out = compiled(input_ids=x, decoder_input_ids=x[:, :3])
    return [out.last_hidden_state, out.encoder_last_hidden_state], compiled


def gpt2_train_step(backend):
    model = tiny_gpt2().train()
    compiled = torch.compile(model, backend=backend)
    x = ids()
    out = compiled(x, labels=x)
    out.loss.backward()
    return [out.loss.detach()] + [p.grad for p in model.parameters()], compiled


def llama_generate(backend):
    model = tiny_llama()
    model.forward = torch.compile(model.forward, backend=backend)
    with torch.no_grad():
        return [model.generate(ids()[:1, :4], max_new_tokens=4, do_sample=False)], model


TORCH_GUARD_LINE = re.compile(r"(?m)^[| ]*\+- ([A-Z_]+): (.*)$")


def torch_guard_set(guard_manager):
    """torch's own rendering of an entry's guards (``str(guard_manager)``: the tree, then the
    epilogue guards), as the set of their first lines."""
    return {m.group(2).rstrip() for m in TORCH_GUARD_LINE.finditer(str(guard_manager))}
