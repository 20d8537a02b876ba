"""Independent re-implementation (Python, standard library) of the proxy-label
rules of docs/proxy-labels.md, to cross-check `gapscope evidence tau2-labels`
on the shared τ²-bench files.

    gapscope evidence tau2-labels ../shared/data/tau2/*/results/*.json \
        ../shared/data/tau2/*/results/partial/*.json \
        --tasks ../shared/data/tau2/airline/tasks_tau3.json > labels.csv
    python3 bench/proxy_labels_ref.py ../shared/data/tau2 labels.csv

Prints the row counts, the rows only one side has (both lists must be empty),
and per file the (0, 0.5, 1, null) counts of ST, AS, RC, TM used by
crates/gapscope-gaps/tests/proxy_labels.rs.
"""
import json,glob,re,sys,collections
D=sys.argv[1].rstrip('/')
files=sorted(glob.glob(D+'/*/results/*.json'))+sorted(glob.glob(D+'/*/results/partial/*.json'))
tau3={t['id']:t for t in json.load(open(D+'/airline/tasks_tau3.json'))}
data=[]
for f in files:
    d=json.load(open(f))
    data.append((f,d))
rec=collections.defaultdict(set)
for f,d in data:
    for s in (d if isinstance(d,list) else d['simulations']):
        for c in ((s.get('reward_info') or {}).get('action_checks') or []):
            if c.get('tool_type'): rec[c['action']['name']].add(c['tool_type'])
READ=("get_","list_","search_","find_","check_","calculate")
def writes(n):
    if n in rec: return 'write' in rec[n]
    return not (n=='think' or n.startswith(READ))
def checkable(v): return isinstance(v,str) and v!='' and not re.search(r'\s',v) and re.search(r'[0-9]',v)
def token(hay,nd):
    return re.search(r'(?<![\w])'+re.escape(nd)+r'(?![\w])',hay) is not None
MON=['january','february','march','april','may','june','july','august','september','october','november','december']
def mon(w):
    w=w.lower()
    for i,m in enumerate(MON):
        if w==m or (len(w)==3 and m.startswith(w)) or (w=='sept' and m=='september'): return i+1
def day(w):
    m=re.fullmatch(r'(\d{1,2})(st|nd|rd|th)?',w.lower())
    if m and 1<=int(m.group(1))<=31: return int(m.group(1))
def mentions(text,y,mo,d):
    ws=[w for w in ''.join(ch if ch.isalnum() else ' ' for ch in text).split()]
    def yok(i): return not (i<len(ws) and re.fullmatch(r'\d{4}',ws[i])) or int(ws[i])==y
    for i,w in enumerate(ws):
        if mon(w)!=mo: continue
        if i+1<len(ws) and day(ws[i+1])==d and yok(i+2): return True
        j=i-2 if i>=2 and ws[i-1].lower()=='of' else i-1
        if j>=0 and day(ws[j])==d and yok(i+1): return True
    return False
def strs(v,out):
    if isinstance(v,str): out.append(v)
    elif isinstance(v,list):
        for x in v: strs(x,out)
    elif isinstance(v,dict):
        for k,x in v.items(): out.append(k); strs(x,out)
def leaves(v,p,out):
    if isinstance(v,str): out.append((p,v))
    elif isinstance(v,list):
        for i,x in enumerate(v): leaves(x,f'{p}[{i}]',out)
    elif isinstance(v,dict):
        for k,x in v.items(): leaves(x,f'{p}.{k}',out)
def jeq(a,b): return json.dumps(a,sort_keys=True)==json.dumps(b,sort_keys=True) if not (isinstance(a,(int,float)) and isinstance(b,(int,float))) else a==b
def norm(v):
    if isinstance(v,bool) or v is None or isinstance(v,str): return v
    if isinstance(v,(int,float)): return float(v)
    if isinstance(v,list): return [norm(x) for x in v]
    return {k:norm(x) for k,x in v.items()}
def matches(a,c):
    if a['name']!=c['name']: return False
    args=c.get('arguments') or {}
    keys=a.get('compare_args') if a.get('compare_args') is not None else list(args.keys())
    if not keys: return True
    return norm({k:args[k] for k in keys if k in args})==norm({k:a['arguments'][k] for k in keys if k in a.get('arguments',{})})
def iserr(m):
    if m.get('error') is not None: return m['error']
    return isinstance(m.get('content'),str) and m['content'].lstrip().startswith('Error')
out=[]
perfile={}
for f,d in data:
    n0=len(out)
    sims=d if isinstance(d,list) else d['simulations']
    tasks=(d.get('tasks') if isinstance(d,dict) else None) or list(tau3.values())
    tmap={t['id']:t for t in tasks}
    def key(a): return json.dumps([a['name'],norm(a.get('arguments') or {})],sort_keys=True)
    reliable=True
    for s in sims:
        ac=(s.get('reward_info') or {}).get('action_checks') or []
        if ac:
            t=tmap.get(s['task_id'])
            g=sorted(key(a) for a in (((t or {}).get('evaluation_criteria') or {}).get('actions') or []))
            if sorted(key(c['action']) for c in ac)!=g: reliable=False
    for i,s in enumerate(sims):
        tid=s.get('id') or f'{f}#{i}'
        ms=s['messages']
        calls=[]; ans={}
        openc=[]
        for mi,m in enumerate(ms):
            if m['role'] in('assistant','user'):
                for c in m.get('tool_calls') or []:
                    openc.append(len(calls)); calls.append(dict(step=len(calls),msg=mi,agent=m['role']=='assistant',c=c,w=writes(c['name']),res=None))
            elif m['role']=='tool':
                pos=None
                if m.get('id') is not None:
                    for p,k in enumerate(openc):
                        if calls[k]['c'].get('id')==m['id']: pos=p;break
                elif openc: pos=0
                if pos is not None:
                    k=openc.pop(pos); calls[k]['res']=(mi,iserr(m)); ans[mi]=k
        # ST
        obs=[]; users=[]
        for mi,m in enumerate(ms):
            for c in calls:
                if c['msg']!=mi or not(c['agent'] and c['w']): continue
                for k,v in (c['c'].get('arguments') or {}).items():
                    ls=[]; leaves(v,k,ls); ch=[x for p,x in ls if checkable(x)]
                    if not ch: continue
                    g=0
                    for x in ch:
                        ok=any(token(t,x) for t in obs)
                        dm=re.fullmatch(r'(\d{4})-(\d{2})-(\d{2})',x)
                        if not ok and dm and 1<=int(dm.group(2))<=12 and 1<=int(dm.group(3))<=31:
                            ok=any(mentions(t,int(dm.group(1)),int(dm.group(2)),int(dm.group(3))) for t in users)
                        g+=ok
                    out.append((tid,'ST',f"{c['step']:04} {c['c']['name']}.{k}", 1.0 if g==len(ch) else (0.0 if g==0 else 0.5)))
            if m['role']=='user' and isinstance(m.get('content'),str):
                t=re.sub('[\u2010-\u2015\u2212]','-',m['content']); obs.append(t); users.append(t)
            if m['role']=='tool' and mi in ans:
                c=calls[ans[mi]]
                if c['agent'] and not c['res'][1]:
                    try:
                        j=json.loads(m['content']) if isinstance(m['content'],str) else m['content']
                        ss=[]; strs(j,ss); obs.extend(ss)
                    except Exception:
                        obs.append(m['content'])
                    if not c['w']:
                        ls=[]; leaves(c['c'].get('arguments') or {},'',ls); obs.extend(x for p,x in ls)
        # AS
        ac=(s.get('reward_info') or {}).get('action_checks') or []
        gold=None
        if ac: gold=[c['action'] for c in ac]
        elif reliable and s['task_id'] in tmap: gold=((tmap[s['task_id']].get('evaluation_criteria') or {}).get('actions') or [])
        if gold is not None:
            for gi,a in enumerate(gold):
                out.append((tid,'AS',f"gold {gi:02} {a['name']}",1.0 if any(matches(a,c['c']) for c in calls) else 0.0))
            taken=set()
            for c in calls:
                if not(c['agent'] and c['w'] and c['res'] and not c['res'][1]): continue
                mm=[gi for gi,a in enumerate(gold) if matches(a,c['c']) and gi not in taken]
                if mm: taken.add(mm[0]); continue
                out.append((tid,'AS',f"unmatched {c['step']:04} {c['c']['name']}",0.0))
        # RC
        for c in calls:
            if not(c['agent'] and c['res'] and c['res'][1]): continue
            rm=c['res'][0]
            nx=[d2 for d2 in calls if d2['agent'] and d2['msg']>rm and d2['c']['name']==c['c']['name']]
            if not nx: l=None
            else:
                d2=nx[0]
                if norm(d2['c'].get('arguments') or {})==norm(c['c'].get('arguments') or {}): l=0.0
                elif d2['res'] is None: l=None
                else: l=0.5 if d2['res'][1] else 1.0
            out.append((tid,'RC',f"{c['step']:04} {c['c']['name']}",l))
        tr=s.get('termination_reason')
        out.append((tid,'TM','termination',{'user_stop':1.0,'agent_stop':1.0,'max_steps':0.0,'too_many_errors':0.0,'agent_error':0.0,'context_window_exceeded':0.0}.get(tr)))
    perfile[f]=collections.Counter((o[1],o[3]) for o in out[n0:])
import csv
mine=[]
for r in csv.DictReader(open(sys.argv[2])):
    mine.append((r['trajectory_id'],r['operation'],r['requirement'],None if r['label']=='null' else float(r['label'])))
print(len(out),len(mine))
so=set(out); sm=set(mine)
print('only ref',sorted(so-sm)[:10]); print('only mine',sorted(sm-so)[:10])
c=collections.Counter((o[1],o[3]) for o in out); print(sorted(c.items(),key=str))

for f in perfile:
    c=perfile[f]
    cells=[]
    for op in ['ST','AS','RC','TM']:
        cells.append('(%d, %d, %d, %d)'%(c[(op,0.0)],c[(op,0.5)],c[(op,1.0)],c[(op,None)]))
    print('("%s", [%s]),'%(f[len(D)+1:], ', '.join(cells)))
