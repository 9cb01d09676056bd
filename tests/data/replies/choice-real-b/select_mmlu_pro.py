"""How the 160 replies were chosen (seeded, per model) from the unzipped result files of
TIGER-AI-Lab/MMLU-Pro eval_results/model_outputs_<model>_5shots.zip (kept under /work/raw-real/mmlu-pro/
while collecting; not a test dependency). Writes selection.json: model -> question ids."""
import json,re,random,ast,sys
MODELS=["Llama-2-7b-hf","Mistral-7B-Instruct-v0.1","Phi-3-mini-4k-instruct","Qwen1.5-7B-Chat","Yi-6b-Chat","gemma-7b","c4ai-command-r-v01","gemini-1.5-flash-002"]
out=lambda r: r.get('generated_text') or r.get('model_outputs') or ''
sel={}
for m in MODELS:
    d=json.load(open(f'/work/raw-real/mmlu-pro/{m}/model_outputs_{m}_5shots.json'))
    rng=random.Random('real-b:'+m)
    ok=[r for r in d if 60<=len(out(r))<=2200]
    std=lambda r: re.search(r'answer is \(?[A-J]\)?\.?\s*$', out(r).strip())
    neg=lambda r: re.search(r'\b(NOT|EXCEPT|LEAST)\b', r['question'])
    pools=[([r for r in ok if not std(r) and r['pred'] in (None,'') and not neg(r)],8),
           ([r for r in ok if not std(r) and r['pred'] not in (None,'') and not neg(r)],6),
           ([r for r in ok if neg(r)],3),
           ([r for r in ok if std(r) and not neg(r)],3)]
    chosen=[]
    for pool,n in pools:
        pool=[r for r in pool if r['question_id'] not in {c['question_id'] for c in chosen}]
        chosen+=rng.sample(pool,min(n,len(pool)))
    sel[m]=[c['question_id'] for c in chosen]
json.dump(sel,open('/work/raw-real/selection.json','w'),indent=0)
