//! One trajectory as the viewer shows it ([`page`]): a header of facts
//! (reward, how it ended, the model's last stop, time, tokens, cost), its
//! scores with their scorers and explanations, the task (scenario, gold
//! actions), its labels, what else the file says, and the conversation —
//! Markdown rendered safely ([`markdown`]), reasoning collapsed, embedded
//! images as thumbnails, each tool call with its arguments and its result
//! beside it, errors marked.
//!
//! Every piece is an HTML string written here, escaped here, so that the
//! page only inserts it. The worker that reads the trajectory writes it
//! (`gapscope_worker`'s `Job::Conversation`): the Markdown parser stays out
//! of the page's first load.

pub mod markdown;

use std::collections::HashMap;
use std::fmt::Write as _;

use gapscope_data::trajectory::{Detail, Message, Score, Trajectory};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::format::fmt;
use crate::markup::esc;

/// A trajectory as the viewer shows it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ConversationPage {
    pub id: String,
    /// `model · task · trial`.
    pub title: String,
    /// (label, value) pairs of the header, in order.
    pub facts: Vec<(String, String)>,
    /// The sections between the header and the conversation.
    pub sections: Vec<Section>,
    /// The conversation: `<ol class="messages">…</ol>`.
    pub messages_html: String,
    /// Messages, tool calls, tool results marked as errors.
    pub counts: (usize, usize, usize),
}

/// A collapsible part of the viewer.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Section {
    pub title: String,
    /// The browser tests' handle (`data-testid`).
    pub testid: String,
    pub open: bool,
    pub html: String,
}

/// Detail labels shown as header facts (not in the details section).
const FACT_DETAILS: [&str; 8] = [
    "limit",
    "error",
    "model's last stop reason",
    "duration",
    "duration (seconds)",
    "tokens",
    "agent cost (USD)",
    "user simulator cost (USD)",
];

/// Detail labels shown in the Task section.
const TASK_DETAILS: [&str; 2] = ["task description", "user scenario"];

/// The most characters of a string value shown whole in a detail.
pub const VALUE_CHARS: usize = 20_000;

/// The viewer's page of `t`; `operations` are the operations whose labels
/// are shown, in the profile's order.
pub fn page(t: &Trajectory, operations: &[String]) -> ConversationPage {
    let stats = t.message_stats();
    let mut title = format!("{} · task {}", t.model, t.task_id);
    if let Some(trial) = t.trial {
        let _ = write!(title, " · trial {trial}");
    }
    ConversationPage {
        id: t.id.clone(),
        title,
        facts: facts(t),
        sections: sections(t, operations),
        messages_html: messages_html(&t.messages),
        counts: (stats.messages, stats.tool_calls, stats.tool_errors),
    }
}

fn detail<'a>(t: &'a Trajectory, label: &str) -> Option<&'a Value> {
    t.details
        .iter()
        .find(|d| d.label == label)
        .map(|d| &d.value)
}

/// The header: reward, how the run ended (the termination reason, named as
/// the file names it, or "not recorded"), and the facts the file records.
fn facts(t: &Trajectory) -> Vec<(String, String)> {
    let mut out = vec![
        (
            "reward".to_string(),
            t.reward.map_or("— (unscored)".into(), |r| fmt(Some(r), 3)),
        ),
        (
            "ended".to_string(),
            t.termination_reason
                .clone()
                .unwrap_or_else(|| "no termination reason recorded (no limit, no error)".into()),
        ),
    ];
    if let Some(Value::String(l)) = detail(t, "limit") {
        out.push(("limit".into(), l.clone()));
    }
    if let Some(Value::String(e)) = detail(t, "error") {
        out.push(("error".into(), e.clone()));
    }
    if let Some(r) = detail(t, "model's last stop reason") {
        out.push(("model's last stop reason".into(), plain(r)));
    }
    let seconds = |v: f64| {
        if v >= 60.0 {
            format!("{:.0} min {:.0} s", (v / 60.0).floor(), v % 60.0)
        } else {
            format!("{v:.1} s")
        }
    };
    if let Some(d) = detail(t, "duration (seconds)").and_then(Value::as_f64) {
        out.push(("duration".into(), seconds(d)));
    }
    if let Some(d) = detail(t, "duration") {
        let total = d.get("total_seconds").and_then(Value::as_f64);
        let working = d.get("working_seconds").and_then(Value::as_f64);
        let text = match (total, working) {
            (Some(a), Some(b)) => format!("{} ({} working)", seconds(a), seconds(b)),
            (Some(a), None) => seconds(a),
            (None, Some(b)) => format!("{} working", seconds(b)),
            (None, None) => plain(d),
        };
        out.push(("duration".into(), text));
    }
    if let Some(tokens) = detail(t, "tokens") {
        out.push(("tokens".into(), tokens_text(tokens)));
    }
    for (label, name) in [
        ("agent cost (USD)", "agent cost"),
        ("user simulator cost (USD)", "user simulator cost"),
    ] {
        if let Some(c) = detail(t, label).and_then(Value::as_f64) {
            out.push((name.into(), format!("${c:.4}")));
        }
    }
    let stats = t.message_stats();
    out.push((
        "messages".into(),
        format!(
            "{} ({} tool calls, {} tool errors)",
            stats.messages, stats.tool_calls, stats.tool_errors
        ),
    ));
    out
}

/// Tokens per model (`{model: {input_tokens, output_tokens, total_tokens}}`):
/// `model: 355 in, 24 out, 379 total; …`; any other shape as JSON.
fn tokens_text(v: &Value) -> String {
    let Some(models) = v.as_object() else {
        return plain(v);
    };
    let mut parts = Vec::new();
    for (model, usage) in models {
        let n = |k: &str| usage.get(k).and_then(Value::as_u64);
        match (n("input_tokens"), n("output_tokens"), n("total_tokens")) {
            (Some(i), Some(o), total) => parts.push(format!(
                "{model}: {i} in, {o} out, {} total",
                total.unwrap_or(i + o)
            )),
            _ => parts.push(format!("{model}: {usage}")),
        }
    }
    parts.join("; ")
}

/// A value as one line of text (strings without their quotes).
fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn sections(t: &Trajectory, operations: &[String]) -> Vec<Section> {
    let mut out = Vec::new();
    if !t.scores.is_empty() {
        out.push(Section {
            title: format!("Scores ({})", t.scores.len()),
            testid: "viewer-scores".into(),
            open: true,
            html: scores_html(&t.scores),
        });
    }
    let task: Vec<&Detail> = t
        .details
        .iter()
        .filter(|d| TASK_DETAILS.contains(&d.label.as_str()))
        .collect();
    if !task.is_empty() {
        let mut html = String::from("<dl class=\"value\">");
        for d in task {
            let _ = write!(html, "<dt>{}</dt><dd>", esc(&d.label));
            value_html(&mut html, &d.value, 0);
            html.push_str("</dd>");
        }
        html.push_str("</dl>");
        out.push(Section {
            title: "Task: description and user scenario".into(),
            testid: "viewer-task".into(),
            open: true,
            html,
        });
    }
    if !t.gold_actions.is_empty() {
        let matched = t.gold_actions.iter().filter(|g| g.matched).count();
        let mut html = String::from("<ul class=\"gold-list\">");
        for g in &t.gold_actions {
            let (class, testid, mark) = if g.matched {
                ("", "gold-matched", "✓ ")
            } else {
                (
                    " class=\"unmatched\"",
                    "gold-unmatched",
                    "✗ not performed: ",
                )
            };
            let _ = write!(
                html,
                "<li{class} data-testid=\"{testid}\">{mark}<code>{}({})</code></li>",
                esc(&g.name),
                esc(&g.arguments.to_string())
            );
        }
        html.push_str("</ul>");
        out.push(Section {
            title: format!(
                "Gold actions: {matched} of {} performed",
                t.gold_actions.len()
            ),
            testid: "gold-actions".into(),
            open: true,
            html,
        });
    }
    let labels: Vec<String> = operations
        .iter()
        .filter_map(|op| {
            let l = t.labels.get(op)?;
            let values: Vec<String> = l
                .iter()
                .map(|v| v.map_or("null".into(), |v| v.to_string()))
                .collect();
            Some(format!("{} [{}]", esc(op), values.join(", ")))
        })
        .collect();
    if !labels.is_empty() {
        out.push(Section {
            title: "Operation labels".into(),
            testid: "viewer-labels".into(),
            open: true,
            html: format!("<p>Labels: {}</p>", labels.join("; ")),
        });
    }
    let rest: Vec<&Detail> = t
        .details
        .iter()
        .filter(|d| {
            !FACT_DETAILS.contains(&d.label.as_str()) && !TASK_DETAILS.contains(&d.label.as_str())
        })
        .collect();
    if !rest.is_empty() {
        let mut html = String::from("<dl class=\"value\">");
        for d in rest {
            let _ = write!(html, "<dt>{}</dt><dd>", esc(&d.label));
            value_html(&mut html, &d.value, 0);
            html.push_str("</dd>");
        }
        html.push_str("</dl>");
        out.push(Section {
            title: "What the file says of the run".into(),
            testid: "viewer-details".into(),
            open: true,
            html,
        });
    }
    out
}

/// The scores table: scorer, value, answer, explanation (Markdown), and the
/// scorer's metadata collapsed.
fn scores_html(scores: &[Score]) -> String {
    let mut html = String::from(
        "<table class=\"data scores\"><thead><tr><th scope=\"col\">Scorer</th><th scope=\"col\">Value</th><th scope=\"col\">Answer</th><th scope=\"col\">Explanation</th></tr></thead><tbody>",
    );
    for s in scores {
        let _ = write!(
            html,
            "<tr data-scorer=\"{}\"><th scope=\"row\">{}</th><td class=\"value\">{}</td><td>{}</td><td>",
            esc(&s.scorer),
            esc(&s.scorer),
            esc(&score_value(&s.value)),
            esc(s.answer.as_deref().unwrap_or("")),
        );
        if let Some(e) = &s.explanation {
            html.push_str(&markdown::to_html(e));
        }
        if let Some(m) = &s.metadata {
            html.push_str("<details class=\"meta\"><summary>metadata</summary>");
            value_html(&mut html, m, 0);
            html.push_str("</details>");
        }
        html.push_str("</td></tr>");
    }
    html.push_str("</tbody></table>");
    html
}

/// A score's value as shown: `true`/`false` as met / not met.
fn score_value(v: &Value) -> String {
    match v {
        Value::Bool(true) => "met".into(),
        Value::Bool(false) => "not met".into(),
        Value::Null => "—".into(),
        other => plain(other),
    }
}

/// A JSON value as nested HTML: objects as definition lists, arrays as
/// numbered lists, strings as pre-wrapped text (cut at [`VALUE_CHARS`]).
pub fn value_html(out: &mut String, v: &Value, depth: usize) {
    if depth > 8 {
        let _ = write!(out, "<code>{}</code>", esc(&v.to_string()));
        return;
    }
    match v {
        Value::Null => out.push_str("<span class=\"null\">—</span>"),
        Value::String(s) => {
            let n = s.chars().count();
            out.push_str("<span class=\"str\">");
            if n > VALUE_CHARS {
                let kept: String = s.chars().take(VALUE_CHARS).collect();
                out.push_str(&esc(&kept));
                let _ = write!(out, "… ({} more characters)", n - VALUE_CHARS);
            } else {
                out.push_str(&esc(s));
            }
            out.push_str("</span>");
        }
        Value::Object(o) if o.is_empty() => out.push_str("<code>{}</code>"),
        Value::Array(a) if a.is_empty() => out.push_str("<code>[]</code>"),
        Value::Object(o) => {
            out.push_str("<dl class=\"value\">");
            for (k, v) in o {
                let _ = write!(out, "<dt>{}</dt><dd>", esc(k));
                value_html(out, v, depth + 1);
                out.push_str("</dd>");
            }
            out.push_str("</dl>");
        }
        Value::Array(a) => {
            out.push_str("<ol class=\"value\">");
            for v in a {
                out.push_str("<li>");
                value_html(out, v, depth + 1);
                out.push_str("</li>");
            }
            out.push_str("</ol>");
        }
        other => {
            let _ = write!(out, "<code>{}</code>", esc(&other.to_string()));
        }
    }
}

/// The conversation: one `<li>` per message but tool results, which sit
/// under the call they answer (a result whose call is not found stays in
/// its own `<li>`, saying so).
pub fn messages_html(messages: &[Message]) -> String {
    // The tool results that answer a call made earlier, by call id.
    let mut calls: HashMap<&str, usize> = HashMap::new();
    let mut answered: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut paired = vec![false; messages.len()];
    for (i, m) in messages.iter().enumerate() {
        for c in &m.tool_calls {
            if let Some(id) = c.id.as_deref() {
                calls.insert(id, i);
            }
        }
        if m.role == "tool" {
            if let Some(&j) = m.tool_call_id.as_deref().and_then(|id| calls.get(id)) {
                answered.entry(j).or_default().push(i);
                paired[i] = true;
            }
        }
    }
    let mut out = String::from("<ol class=\"messages\" data-testid=\"messages\">");
    for (i, m) in messages.iter().enumerate() {
        if paired[i] {
            continue;
        }
        let error = m.error == Some(true);
        let role = esc(&m.role);
        let _ = write!(
            out,
            "<li class=\"msg role-{role}{}\" data-role=\"{role}\" data-index=\"{i}\"><span class=\"role\">{role}{}</span>",
            if error { " tool-error" } else { "" },
            if error { " (error)" } else { "" },
        );
        if m.role == "tool" {
            let what = match &m.tool_call_id {
                Some(id) => format!("result of {id} (no call with this id before it)"),
                None => "result".into(),
            };
            result_html(&mut out, m, &what);
        } else if m.role == "system" {
            // A system prompt is long and the same in every trajectory.
            out.push_str("<details class=\"system\"><summary>system prompt</summary>");
            content_html(&mut out, m.content.as_ref());
            out.push_str("</details>");
        } else {
            content_html(&mut out, m.content.as_ref());
        }
        for c in &m.tool_calls {
            let _ = write!(
                out,
                "<div class=\"call\"><div class=\"call-head\"><span class=\"tag\">tool call</span> <code>{}</code>{}</div>",
                esc(&c.name),
                c.id.as_deref()
                    .map(|id| format!(" <span class=\"call-id\">{}</span>", esc(id)))
                    .unwrap_or_default()
            );
            let args = match &c.arguments {
                Value::Object(o) if o.is_empty() => String::new(),
                Value::Null => String::new(),
                Value::String(s) => s.clone(),
                other => serde_json::to_string_pretty(other).unwrap_or_default(),
            };
            if !args.is_empty() {
                let _ = write!(out, "<pre class=\"args\">{}</pre>", esc(&args));
            }
            // The results answering this call: paired with this message
            // (the last one before them to make a call with this id).
            let results: Vec<usize> = match (c.id.as_deref(), answered.get(&i)) {
                (Some(id), Some(rs)) => rs
                    .iter()
                    .filter(|&&r| messages[r].tool_call_id.as_deref() == Some(id))
                    .copied()
                    .collect(),
                _ => Vec::new(),
            };
            if results.is_empty() {
                out.push_str("<p class=\"no-result\">no result recorded</p>");
            }
            for r in results {
                let rm = &messages[r];
                let label = if rm.error == Some(true) {
                    "result (error)"
                } else {
                    "result"
                };
                result_html(&mut out, rm, label);
            }
            out.push_str("</div>");
        }
        out.push_str("</li>");
    }
    out.push_str("</ol>");
    out
}

/// A tool result: collapsed unless it is an error; JSON pretty-printed.
fn result_html(out: &mut String, m: &Message, label: &str) {
    let error = m.error == Some(true);
    let _ = write!(
        out,
        "<details class=\"tool-result{}\"{}><summary>{}</summary>",
        if error { " error" } else { "" },
        if error { " open" } else { "" },
        esc(label)
    );
    match &m.content {
        Some(Value::String(s)) => {
            let pretty = serde_json::from_str::<Value>(s)
                .ok()
                .filter(|v| v.is_object() || v.is_array())
                .and_then(|v| serde_json::to_string_pretty(&v).ok());
            let _ = write!(out, "<pre>{}</pre>", esc(pretty.as_deref().unwrap_or(s)));
        }
        Some(Value::Array(_)) => content_html(out, m.content.as_ref()),
        Some(Value::Null) | None => out.push_str("<p class=\"no-result\">(empty)</p>"),
        Some(other) => {
            let _ = write!(
                out,
                "<pre>{}</pre>",
                esc(&serde_json::to_string_pretty(other).unwrap_or_default())
            );
        }
    }
    out.push_str("</details>");
}

/// A message's content: text as Markdown; a list of parts part by part
/// (text, reasoning collapsed, images, anything else as JSON).
pub fn content_html(out: &mut String, content: Option<&Value>) {
    match content {
        None | Some(Value::Null) => {}
        Some(Value::String(s)) => {
            out.push_str("<div class=\"md\">");
            out.push_str(&markdown::to_html(s));
            out.push_str("</div>");
        }
        Some(Value::Array(parts)) => {
            for p in parts {
                part_html(out, p);
            }
        }
        Some(other) => {
            let _ = write!(
                out,
                "<pre>{}</pre>",
                esc(&serde_json::to_string_pretty(other).unwrap_or_default())
            );
        }
    }
}

fn part_html(out: &mut String, p: &Value) {
    let text_of = |k: &str| p.get(k).and_then(Value::as_str);
    let kind = text_of("type").unwrap_or("");
    match kind {
        "reasoning" | "thinking" => {
            let text = text_of("reasoning")
                .or_else(|| text_of("thinking"))
                .unwrap_or("");
            let redacted = p.get("redacted").and_then(Value::as_bool) == Some(true);
            if redacted || text.is_empty() {
                out.push_str("<p class=\"reasoning-redacted\">(reasoning not shown in clear by the file)</p>");
                return;
            }
            let words = text.split_whitespace().count();
            let _ = write!(
                out,
                "<details class=\"reasoning\"><summary>reasoning ({words} words)</summary><div class=\"md\">{}</div></details>",
                markdown::to_html(text)
            );
        }
        "image" | "image_url" | "input_image" => {
            let url = text_of("image")
                .or_else(|| {
                    p.get("image_url")
                        .and_then(|u| u.get("url").or(Some(u)))
                        .and_then(Value::as_str)
                })
                .map(String::from)
                .or_else(|| {
                    // Anthropic: {source: {type: base64, media_type, data}}.
                    let s = p.get("source")?;
                    Some(format!(
                        "data:{};base64,{}",
                        s.get("media_type")?.as_str()?,
                        s.get("data")?.as_str()?
                    ))
                });
            match url {
                Some(u) => {
                    out.push_str("<p>");
                    out.push_str(&markdown::image_html(&u, ""));
                    out.push_str("</p>");
                }
                None => {
                    let _ = write!(out, "<pre>{}</pre>", esc(&p.to_string()));
                }
            }
        }
        _ => match (text_of("text"), p) {
            (Some(t), _) => {
                out.push_str("<div class=\"md\">");
                out.push_str(&markdown::to_html(t));
                out.push_str("</div>");
            }
            (None, Value::String(s)) => {
                out.push_str("<div class=\"md\">");
                out.push_str(&markdown::to_html(s));
                out.push_str("</div>");
            }
            _ => {
                let _ = write!(
                    out,
                    "<pre class=\"part\">{}</pre>",
                    esc(&serde_json::to_string_pretty(p).unwrap_or_default())
                );
            }
        },
    }
}

#[cfg(test)]
mod tests;
