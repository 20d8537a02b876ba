#![allow(clippy::unwrap_used)]

use super::*;
use gapscope_data::trajectory::{GoldAction, ToolCall};
use serde_json::json;

fn msg(role: &str, content: Value) -> Message {
    Message::new(role, Some(content))
}

fn call(id: &str, name: &str, args: Value) -> ToolCall {
    ToolCall {
        id: Some(id.into()),
        name: name.into(),
        arguments: args,
    }
}

fn result(id: &str, text: &str, error: bool) -> Message {
    Message {
        tool_call_id: Some(id.into()),
        error: Some(error),
        ..msg("tool", json!(text))
    }
}

/// The `<li>`s of the conversation's top level, as (role, inner HTML).
fn items(html: &str) -> Vec<(String, String)> {
    let body = html
        .strip_prefix("<ol class=\"messages\" data-testid=\"messages\">")
        .unwrap()
        .strip_suffix("</ol>")
        .unwrap();
    // Top-level items: split on the opening tag this module writes.
    body.split("<li class=\"msg ")
        .skip(1)
        .map(|s| {
            let role = s
                .split("data-role=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            (role.to_string(), s.to_string())
        })
        .collect()
}

#[test]
fn tool_results_sit_under_their_calls_and_errors_are_marked() {
    let mut a = msg("assistant", json!("Looking it up."));
    a.tool_calls = vec![
        call("c1", "get_user", json!({"id": "u<1>"})),
        call("c2", "get_order", json!({})),
    ];
    let mut b = msg("assistant", json!("Again."));
    // The id c1 reused by a later call: its result pairs with this one.
    b.tool_calls = vec![call("c1", "retry", json!({"n": 2}))];
    let messages = vec![
        msg("user", json!("hi")),
        a,
        result("c2", "{\"total\": 3}", false),
        result("c1", "user found", false),
        b,
        result("c1", "boom", true),
        result("zz", "orphan", false),
    ];
    let html = messages_html(&messages);
    let li = items(&html);
    let roles: Vec<&str> = li.iter().map(|(r, _)| r.as_str()).collect();
    // Paired results are not items of their own; the orphan is.
    assert_eq!(roles, ["user", "assistant", "assistant", "tool"]);
    let first = &li[1].1;
    // Each call: its name, escaped arguments, then its own result.
    let c1 = first.find("<code>get_user</code>").unwrap();
    let c2 = first.find("<code>get_order</code>").unwrap();
    let r1 = first.find("user found").unwrap();
    let r2 = first.find("&quot;total&quot;: 3").unwrap();
    assert!(c1 < r1 && r1 < c2 && c2 < r2, "{first}");
    assert!(first.contains("&quot;u&lt;1&gt;&quot;"), "{first}");
    // The error is open and marked.
    let second = &li[2].1;
    assert!(second.contains("<details class=\"tool-result error\" open><summary>result (error)</summary><pre>boom</pre>"), "{second}");
    assert!(li[3]
        .1
        .contains("result of zz (no call with this id before it)"));
    assert!(!first.contains("boom") && !second.contains("user found"));
}

#[test]
fn a_message_with_markup_renders_as_text() {
    let messages = vec![msg("user", json!("<img src=x onerror=alert(1)> **hi**"))];
    let html = messages_html(&messages);
    assert!(!html.contains("<img"), "{html}");
    assert!(
        html.contains("&lt;img src=x onerror=alert(1)&gt; <strong>hi</strong>"),
        "{html}"
    );
}

#[test]
fn inspect_parts_reasoning_collapsed_images_thumbnails() {
    let content = json!([
        {"type": "reasoning", "reasoning": "First add, then check."},
        {"type": "reasoning", "reasoning": "", "redacted": true},
        {"type": "text", "text": "The answer is **5**."},
        {"type": "image", "image": "data:image/png;base64,AAAA"},
        {"type": "image", "image": "https://example.org/x.png"},
        {"type": "audio", "audio": "a.mp3"}
    ]);
    let html = messages_html(&[msg("assistant", content)]);
    assert!(html.contains("<details class=\"reasoning\"><summary>reasoning (4 words)</summary><div class=\"md\"><p>First add, then check.</p>"), "{html}");
    assert!(html.contains("(reasoning not shown in clear by the file)"));
    assert!(html.contains("<p>The answer is <strong>5</strong>.</p>"));
    assert!(html.contains("<img class=\"thumb\" src=\"data:image/png;base64,AAAA\""));
    assert!(html.contains("[image: https://example.org/x.png]"));
    assert_eq!(
        html.matches("<img").count(),
        1,
        "the remote image is never an <img>"
    );
    assert!(
        html.contains("&quot;audio&quot;"),
        "an unknown part as JSON: {html}"
    );
}

#[test]
fn the_page_has_facts_scores_task_and_gold_actions() {
    let mut t = Trajectory {
        id: "t1".into(),
        model: "m".into(),
        task_id: "7".into(),
        trial: Some(2),
        reward: Some(0.5),
        messages: vec![msg("system", json!("policy")), msg("user", json!("hello"))],
        gold_actions: vec![
            GoldAction {
                name: "a".into(),
                arguments: json!({"x": 1}),
                matched: true,
            },
            GoldAction {
                name: "b".into(),
                arguments: json!({}),
                matched: false,
            },
        ],
        ..Default::default()
    };
    t.details = vec![
        Detail {
            label: "model's last stop reason".into(),
            value: json!("tool_calls"),
        },
        Detail {
            label: "tokens".into(),
            value: json!({"openai/gpt": {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15}}),
        },
        Detail {
            label: "duration".into(),
            value: json!({"total_seconds": 75.0, "working_seconds": 3.25}),
        },
        Detail {
            label: "user scenario".into(),
            value: json!({"instructions": {"reason_for_call": "cancel <b>it</b>"}}),
        },
        Detail {
            label: "review".into(),
            value: json!("fine"),
        },
    ];
    t.scores = vec![Score {
        scorer: "model_graded_qa".into(),
        value: json!("P"),
        answer: Some("5".into()),
        explanation: Some("Close.\n\nGRADE: P".into()),
        metadata: Some(json!({"grader": "g"})),
    }];
    let p = page(&t, &[]);
    assert_eq!(p.title, "m · task 7 · trial 2");
    let fact = |k: &str| {
        p.facts
            .iter()
            .find(|(l, _)| l == k)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(fact("reward"), Some("0.500"));
    assert_eq!(
        fact("ended"),
        Some("no termination reason recorded (no limit, no error)")
    );
    assert_eq!(fact("model's last stop reason"), Some("tool_calls"));
    assert_eq!(fact("tokens"), Some("openai/gpt: 10 in, 5 out, 15 total"));
    assert_eq!(fact("duration"), Some("1 min 15 s (3.2 s working)"));
    assert_eq!(fact("messages"), Some("2 (0 tool calls, 0 tool errors)"));
    let ids: Vec<&str> = p.sections.iter().map(|s| s.testid.as_str()).collect();
    assert_eq!(
        ids,
        [
            "viewer-scores",
            "viewer-task",
            "gold-actions",
            "viewer-details"
        ]
    );
    let scores = &p.sections[0].html;
    assert!(scores.contains("<th scope=\"row\">model_graded_qa</th><td class=\"value\">P</td><td>5</td><td><p>Close.</p>\n<p>GRADE: P</p>"), "{scores}");
    assert!(scores.contains("<summary>metadata</summary>"));
    assert!(p.sections[1].html.contains("cancel &lt;b&gt;it&lt;/b&gt;"));
    assert_eq!(p.sections[2].title, "Gold actions: 1 of 2 performed");
    assert!(p.sections[2]
        .html
        .contains("data-testid=\"gold-unmatched\">✗ not performed: <code>b({})</code>"));
    // Facts are not repeated among the details.
    assert!(!p.sections[3].html.contains("tokens") && p.sections[3].html.contains("review"));
    // The system prompt is collapsed.
    assert!(p
        .messages_html
        .contains("<details class=\"system\"><summary>system prompt</summary>"));
}
