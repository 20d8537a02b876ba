//! Teacher traces for the SFT validity filter (addendum §7): one scripted
//! teacher (not a language model) under P->P and S->S on the same instance
//! ids, with `completion` on every step; some traces fail R1–R4 by design.

use indexmap::IndexMap;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use gapscope_runtime::knapsack::{self, Instance};
use gapscope_runtime::log::{Condition, Episode, Runtime, Termination};

use super::{param, stop_error, stream_rng, AddendumParams, Transcript, TEACHER_LABEL};
use crate::runtime_sim::{
    best_subset, generate_instance, py_list, shuffle, Block, Ctx, Env, SimError, SimParams,
};

/// What is wrong with a teacher trace (by design).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flaw {
    None,
    /// R1: decides hurriedly (one item), score < 0.5 by anti-collapse.
    LowScore,
    /// R2: takes its items but never calls `finish`.
    NoFinish,
    /// R3: sends the same message twice in a row.
    Loop,
    /// R4: TypeError and NameError steps.
    BadErrors,
}

/// Every third id is clean under both runtimes (the dual-valid pairs); the
/// others cycle through the flaws, shifted between the runtimes.
fn flaw(k: usize, runtime: Runtime) -> Flaw {
    const CYCLE: [Flaw; 4] = [Flaw::LowScore, Flaw::NoFinish, Flaw::Loop, Flaw::BadErrors];
    if k.is_multiple_of(3) {
        return Flaw::None;
    }
    let shift = usize::from(runtime == Runtime::S);
    CYCLE[(k + shift) % 4]
}

const TEACHER_CAP: u32 = 60;
const TEACHER_TURN_LIMIT: u32 = 6;

fn completion(prose: &str, code: &str) -> String {
    format!("{prose}\n\n```python\n{code}```")
}

pub(super) fn traces(a: &AddendumParams, out: &mut Vec<Episode>) -> Result<(), SimError> {
    let seed = a.seeds[0];
    let p = SimParams {
        seed,
        ..SimParams::default()
    };
    let mut rng = stream_rng(seed, 0x7EAC, 0);
    for k in 0..a.teacher_instances {
        let inst = generate_instance(&p, &mut rng, k)?;
        let opt = knapsack::optimum(&inst).map_err(|e| param("capacity", e.to_string()))?;
        let instance_id = format!("t{k:03}");
        for runtime in [Runtime::P, Runtime::S] {
            let mut erng = stream_rng(
                seed,
                0x7EAD,
                ((k as u64) << 8) | u64::from(runtime == Runtime::S),
            );
            let mut e = teacher_trace(
                &p,
                &inst,
                &instance_id,
                runtime,
                flaw(k, runtime),
                &mut erng,
                opt.value,
            );
            e.base_model = TEACHER_LABEL.into();
            e.turn_limit = Some(TEACHER_TURN_LIMIT);
            e.wall_clock_limit_s = Some(a.horizons[0].1);
            e.context_window = Some(a.context_window);
            e.output_reservation = Some(a.output_reservation);
            out.push(e);
        }
    }
    Ok(())
}

#[allow(clippy::too_many_lines)]
fn teacher_trace(
    p: &SimParams,
    inst: &Instance,
    instance_id: &str,
    runtime: Runtime,
    flaw: Flaw,
    rng: &mut ChaCha8Rng,
    opt_value: f64,
) -> Episode {
    let mut sample: Vec<String> = inst.items.iter().map(|i| i.id.clone()).collect();
    shuffle(&mut sample, rng);
    sample.truncate(p.budget.min(inst.items.len() as u64) as usize);
    let ctx = Ctx {
        inst,
        sample,
        sample_seed: rng.random_range(0..1000u32),
    };
    let mut env = Env {
        inst,
        cache: IndexMap::new(),
        taken: Vec::new(),
        weight: 0,
        finished: false,
    };
    let mut table: IndexMap<String, knapsack::Item> = IndexMap::new();
    let mut tr = Transcript::new();
    // Under S the teacher re-enters its printed record at the top of a block.
    let reenter = |table: &IndexMap<String, knapsack::Item>| -> String {
        if runtime == Runtime::P {
            return String::new();
        }
        let entries: Vec<String> = table
            .iter()
            .map(|(i, it)| format!("{i:?}: ({}, {}, {:?})", it.weight, it.value, it.class))
            .collect();
        format!(
            "table = {{{}}}   # re-entered from the printed transcript\n",
            entries.join(", ")
        )
    };

    // Step 1: list, inspect the sample, print the record.
    {
        let code = format!(
            "ids = list_items()\n{}table = {{i: inspect(i) for i in order}}\nprint(table)\n",
            ctx.sample_line()
        );
        let mut b = Block {
            env: &mut env,
            cap: TEACHER_CAP,
            calls: Vec::new(),
            stdout: String::new(),
        };
        let r = (|| {
            b.list_items()?;
            for i in &ctx.sample {
                let it = b.inspect(i)?;
                table.insert(i.clone(), it);
            }
            Ok(())
        })();
        let entries: Vec<String> = table
            .iter()
            .map(|(i, it)| format!("{i:?}: ({}, {}, {:?})", it.weight, it.value, it.class))
            .collect();
        b.stdout.push_str(&format!("{{{}}}\n", entries.join(", ")));
        let (calls, stdout) = (b.calls, b.stdout);
        let prose = format!(
            "I list the items and inspect a sample of {} of them (the budget), printing the record so it survives any reset.",
            ctx.sample.len()
        );
        let error = stop_error(&r, TEACHER_CAP);
        tr.logged(
            code.clone(),
            calls,
            error,
            stdout,
            Some(completion(&prose, &code)),
        );
    }

    // Flawed middle steps.
    match flaw {
        Flaw::Loop => {
            let code = "print(\"checking the record before deciding\")\n".to_string();
            let msg = completion("Before deciding I check the record once more.", &code);
            for _ in 0..2 {
                tr.logged(
                    code.clone(),
                    Vec::new(),
                    None,
                    "checking the record before deciding\n".into(),
                    Some(msg.clone()),
                );
            }
        }
        Flaw::BadErrors => {
            let code = format!(
                "{}plan = best_subset(table, cap={})\n",
                reenter(&table),
                inst.capacity
            );
            tr.logged(
                code.clone(),
                Vec::new(),
                Some("TypeError: best_subset() got an unexpected keyword argument 'cap'".into()),
                String::new(),
                Some(completion(
                    "Now the plan: the best subset within the capacity.",
                    &code,
                )),
            );
            let code = "print(sorted(plan))\n".to_string();
            tr.logged(
                code.clone(),
                Vec::new(),
                Some("NameError: name 'plan' is not defined".into()),
                String::new(),
                Some(completion(
                    "Let me look at the plan before taking anything.",
                    &code,
                )),
            );
        }
        Flaw::None | Flaw::LowScore | Flaw::NoFinish => {}
    }

    // The deciding step.
    {
        let plan: Vec<String> = if flaw == Flaw::LowScore {
            table
                .iter()
                .filter(|(_, it)| {
                    inst.allowed_classes.contains(&it.class) && it.weight <= inst.capacity
                })
                .min_by(|x, y| x.1.value.total_cmp(&y.1.value))
                .map(|(i, _)| vec![i.clone()])
                .unwrap_or_default()
        } else {
            best_subset(inst, &table)
        };
        let head = reenter(&table);
        let (code, prose) = match flaw {
            Flaw::LowScore => (
                format!("{head}take_item({:?})\nfinish()\n", plan.first().cloned().unwrap_or_default()),
                "One allowed item will do; I take it and finish.".to_string(),
            ),
            Flaw::NoFinish => (
                format!(
                    "{head}plan = best_subset(table, capacity={}, allowed={})\nfor i in {}:\n    take_item(i)\n",
                    inst.capacity,
                    ctx.allowed(),
                    py_list(&plan)
                ),
                "I take the best subset of what I inspected.".to_string(),
            ),
            _ => (
                format!("{head}{}", ctx.decide_code(&[])),
                "The record is complete: I take the best subset within the capacity and finish."
                    .to_string(),
            ),
        };
        let mut b = Block {
            env: &mut env,
            cap: TEACHER_CAP,
            calls: Vec::new(),
            stdout: String::new(),
        };
        let r = (|| {
            for i in &plan {
                b.take_item(i)?;
            }
            if flaw != Flaw::NoFinish {
                b.finish()?;
            }
            Ok(())
        })();
        let (calls, stdout) = (b.calls, b.stdout);
        let error = stop_error(&r, TEACHER_CAP);
        tr.logged(
            code.clone(),
            calls,
            error,
            stdout,
            Some(completion(&prose, &code)),
        );
    }

    // No finish: distinct checking steps until the turn limit.
    if flaw == Flaw::NoFinish {
        let checks = [
            (
                "weight = sum(table[i][0] for i in plan)\nprint(\"weight\", weight)\n".to_string(),
                format!("weight {}\n", env.weight),
                "I verify the weight of what I took against the capacity.",
            ),
            (
                "value = sum(table[i][1] for i in plan)\nprint(\"value\", value)\n".to_string(),
                "value computed\n".to_string(),
                "Next, the total value of the chosen items.",
            ),
            (
                "left = [i for i in order if i not in plan]\nprint(len(left), \"left out\")\n"
                    .to_string(),
                "left out counted\n".to_string(),
                "Which inspected items did I leave out, and why?",
            ),
            (
                "print(sorted(plan))\n".to_string(),
                format!("{}\n", py_list(&env.taken)),
                "Finally, the chosen ids in order.",
            ),
        ];
        for (code, stdout, prose) in checks {
            if tr.turns.len() as u32 >= TEACHER_TURN_LIMIT {
                break;
            }
            tr.logged(
                code.clone(),
                Vec::new(),
                None,
                stdout,
                Some(completion(prose, &code)),
            );
        }
    }

    let achieved: f64 = env
        .taken
        .iter()
        .filter_map(|id| inst.item(id))
        .fold(0.0, |s, it| s + it.value);
    let c = Condition::of(runtime, runtime);
    Episode {
        episode_id: format!("add-teacher-{instance_id}-{}", c.label().replace("->", "")),
        task_family: knapsack::FAMILY.into(),
        instance_id: instance_id.into(),
        train_runtime: runtime,
        deploy_runtime: runtime,
        cap: TEACHER_CAP,
        seed: p.seed,
        rollout: 0,
        base_model: TEACHER_LABEL.into(),
        score: if opt_value > 0.0 && env.weight <= inst.capacity {
            achieved / opt_value
        } else {
            0.0
        },
        termination: if env.finished {
            Termination::Finish
        } else {
            Termination::TurnLimit
        },
        instance: serde_json::to_value(inst).ok().map(std::sync::Arc::new),
        turns: tr.turns,
        intervention: None,
        batch: None,
        turn_limit: None,
        wall_clock_limit_s: None,
        context_window: None,
        output_reservation: None,
        generator_warning: None,
        score_components: None,
    }
}
