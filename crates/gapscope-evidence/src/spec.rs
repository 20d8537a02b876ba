//! Evidence-to-action case specs (spec: evidence-to-action.md, "Case spec"):
//! reading (one JSON object, a JSON array of objects, or JSONL) and
//! validation into typed [`Case`]s with located errors.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

use crate::EvidenceError;
use gapscope_data::formats::tau2::json_equal;

/// The five protocols of the paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Protocol {
    Legacy,
    V0,
    V1,
    V2,
    V3,
}

impl Protocol {
    pub const ALL: [Protocol; 5] = [
        Protocol::Legacy,
        Protocol::V0,
        Protocol::V1,
        Protocol::V2,
        Protocol::V3,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Protocol::Legacy => "Legacy",
            Protocol::V0 => "V0",
            Protocol::V1 => "V1",
            Protocol::V2 => "V2",
            Protocol::V3 => "V3",
        }
    }

    /// Case-insensitive.
    pub fn parse(text: &str) -> Option<Protocol> {
        Protocol::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(text.trim()))
    }

    /// V1–V3: the agent must act.
    pub fn acts(self) -> bool {
        matches!(self, Protocol::V1 | Protocol::V2 | Protocol::V3)
    }
}

/// A terminal label or decision (compared case-insensitively).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Label {
    Act,
    Allow,
    Block,
    Defer,
}

impl Label {
    pub fn name(self) -> &'static str {
        match self {
            Label::Act => "ACT",
            Label::Allow => "ALLOW",
            Label::Block => "BLOCK",
            Label::Defer => "DEFER",
        }
    }

    pub fn parse(text: &str) -> Option<Label> {
        [Label::Act, Label::Allow, Label::Block, Label::Defer]
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(text.trim()))
    }
}

/// A tool exposed to the agent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolSpec {
    pub name: String,
    /// Parameter names; when given, spec arguments must use only these.
    #[serde(default)]
    pub parameters: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// An argument value in a spec: a literal, or the value a named action
/// actually returned in this trajectory (`{"ref": "a1.refund_id"}`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arg {
    Literal(Value),
    Ref(RefSpec),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefSpec {
    pub action: String,
    pub field: String,
}

impl std::fmt::Display for RefSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.action, self.field)
    }
}

/// A read: an information call to `tool` whose arguments include `args`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReadSpec {
    pub tool: String,
    pub args: IndexMap<String, Arg>,
}

impl ReadSpec {
    /// The same read as written: same tool, same argument names, literal
    /// values JSON-equal (1 = 1.0), `ref`s naming the same field.
    pub fn same_read(&self, other: &ReadSpec) -> bool {
        self.tool == other.tool
            && self.args.len() == other.args.len()
            && self.args.iter().all(|(k, a)| match (a, other.args.get(k)) {
                (Arg::Literal(x), Some(Arg::Literal(y))) => json_equal(x, y),
                (Arg::Ref(x), Some(Arg::Ref(y))) => x == y,
                _ => false,
            })
    }
}

/// Where a requirement's evidence must come from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// An `ok` information call within the read budget.
    Read(ReadSpec),
    /// The applied result of a spec action carrying `field`, and, with
    /// `confirm`, a read of the resulting state issued after that result.
    ActionResult {
        action: String,
        field: String,
        confirm: Option<ReadSpec>,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Requirement {
    pub id: String,
    pub fact: String,
    pub source: Source,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ActionSpec {
    pub id: String,
    pub tool: String,
    pub args: IndexMap<String, Arg>,
    pub requires: Vec<String>,
    pub after: Vec<String>,
    /// Result fields the action returns (what a `ref` may name); `None`
    /// when the case does not say (addendum §1: `returns` is optional, and a
    /// `ref` to a field the result lacks fails at scoring instead).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returns: Option<Vec<String>>,
}

impl ActionSpec {
    /// The literal arguments.
    pub fn literals(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.args.iter().filter_map(|(k, a)| match a {
            Arg::Literal(v) => Some((k, v)),
            Arg::Ref(_) => None,
        })
    }
}

/// One validated case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Case {
    pub case_id: String,
    pub protocol: Protocol,
    pub domain: String,
    pub instruction: String,
    /// Information calls allowed; `None`: no limit.
    pub read_budget: Option<u64>,
    pub information: Vec<ToolSpec>,
    pub consequential: Vec<ToolSpec>,
    pub requirements: Vec<Requirement>,
    pub actions: Vec<ActionSpec>,
    /// `ACT`, `BLOCK` or `DEFER` (Legacy: may be absent).
    pub terminal: Option<Label>,
    pub candidate: Option<Value>,
    pub expected_decision: Option<Label>,
    pub notes: Option<String>,
    /// Case-level `conditions` (addendum §1): per condition, the
    /// requirements an evidence intervention manipulates (only §8.3 uses it).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub conditions: IndexMap<String, ConditionSpec>,
}

/// What an evidence intervention manipulates in one case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConditionSpec {
    /// Requirement ids; `None`: every read spec (addendum §8.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub affects: Option<Vec<String>>,
}

impl Case {
    pub fn requirement(&self, id: &str) -> Option<&Requirement> {
        self.requirements.iter().find(|r| r.id == id)
    }

    pub fn action(&self, id: &str) -> Option<&ActionSpec> {
        self.actions.iter().find(|a| a.id == id)
    }

    pub fn is_information(&self, tool: &str) -> bool {
        self.information.iter().any(|t| t.name == tool)
    }

    pub fn is_consequential(&self, tool: &str) -> bool {
        self.consequential.iter().any(|t| t.name == tool)
    }

    /// The read spec a requirement carries (addendum §3): its read source,
    /// or the `confirm` read of an action-sourced requirement; `None` for an
    /// action result without a confirm.
    pub fn read_spec_of(req: &Requirement) -> Option<&ReadSpec> {
        match &req.source {
            Source::Read(spec) => Some(spec),
            Source::ActionResult { confirm, .. } => confirm.as_ref(),
        }
    }

    /// The case's distinct read specs, in order of first appearance
    /// (addendum §3, which replaces counting requirements): two requirements
    /// read from one record — same tool, same argument names, equal values,
    /// `ref`s as written — are one required read.
    pub fn read_specs(&self) -> Vec<&ReadSpec> {
        let mut out: Vec<&ReadSpec> = Vec::new();
        for spec in self.requirements.iter().filter_map(Case::read_spec_of) {
            if !out.iter().any(|o| o.same_read(spec)) {
                out.push(spec);
            }
        }
        out
    }

    /// For each requirement (in order), the index in [`Case::read_specs`] of
    /// the read spec it carries.
    pub fn read_spec_index(&self) -> Vec<Option<usize>> {
        let specs = self.read_specs();
        self.requirements
            .iter()
            .map(|r| Case::read_spec_of(r).and_then(|s| specs.iter().position(|o| o.same_read(s))))
            .collect()
    }

    /// Required reads (addendum §3): the number of distinct read specs, the
    /// denominator of normalized investigation effort.
    pub fn required_reads(&self) -> usize {
        self.read_specs().len()
    }

    /// Pairs of distinct read specs one call could satisfy together (same
    /// tool, no argument name with conflicting literal values): then
    /// "investigation complete" does not imply effort ≥ 1 (addendum §3).
    pub fn overlapping_read_specs(&self) -> Vec<(usize, usize)> {
        let specs = self.read_specs();
        let mut out = Vec::new();
        for i in 0..specs.len() {
            for j in i + 1..specs.len() {
                let (a, b) = (specs[i], specs[j]);
                let conflict = a.args.iter().any(|(k, x)| match (x, b.args.get(k)) {
                    (Arg::Literal(x), Some(Arg::Literal(y))) => !json_equal(x, y),
                    _ => false,
                });
                if a.tool == b.tool && !conflict {
                    out.push((i, j));
                }
            }
        }
        out
    }

    /// Requirements no action lists in `requires` (V1–V3 check only those).
    pub fn unused_requirements(&self) -> Vec<&str> {
        if !self.protocol.acts() {
            return Vec::new();
        }
        let required: std::collections::HashSet<&str> = self
            .actions
            .iter()
            .flat_map(|a| a.requires.iter().map(String::as_str))
            .collect();
        self.requirements
            .iter()
            .filter(|r| !required.contains(r.id.as_str()))
            .map(|r| r.id.as_str())
            .collect()
    }
}

/// Where in the case file a case starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaseLocation {
    /// JSONL line (1-based); a single object is line 1.
    Line(u64),
    /// Position in a JSON array (1-based).
    Item(usize),
}

impl std::fmt::Display for CaseLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CaseLocation::Line(l) => write!(f, "line {l}"),
            CaseLocation::Item(i) => write!(f, "item {i}"),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTools {
    #[serde(default)]
    information: Vec<ToolSpec>,
    #[serde(default)]
    consequential: Vec<ToolSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRequirement {
    id: String,
    #[serde(default)]
    fact: String,
    source: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAction {
    id: String,
    tool: String,
    #[serde(default)]
    args: Map<String, Value>,
    #[serde(default)]
    requires: Vec<String>,
    #[serde(default)]
    after: Vec<String>,
    #[serde(default)]
    returns: Option<Vec<String>>,
    #[serde(default)]
    #[allow(dead_code)]
    description: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    case_id: String,
    protocol: String,
    domain: String,
    #[serde(default)]
    instruction: String,
    #[serde(default)]
    read_budget: Option<u64>,
    #[serde(default)]
    tools: Option<RawTools>,
    #[serde(default)]
    requirements: Vec<RawRequirement>,
    #[serde(default)]
    actions: Vec<RawAction>,
    #[serde(default)]
    terminal: Option<String>,
    #[serde(default)]
    candidate: Option<Value>,
    #[serde(default)]
    expected_decision: Option<String>,
    #[serde(default)]
    notes: Option<String>,
    #[serde(default)]
    conditions: Option<IndexMap<String, RawConditionSpec>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConditionSpec {
    #[serde(default)]
    affects: Option<Vec<String>>,
}

/// The condition every trajectory without `condition` ran under.
pub const BASELINE: &str = "baseline";
/// The condition scored as Legacy (addendum §1).
pub const STATIC: &str = "static";

/// A condition name (addendum §1): non-empty, without `,` or `@` (a side
/// is written `config@condition`), no surrounding spaces.
pub fn check_condition_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        Err("a condition name must not be empty".into())
    } else if name.trim() != name {
        Err(format!("condition `{name}` has surrounding spaces"))
    } else if let Some(c) = name.chars().find(|c| *c == ',' || *c == '@') {
        Err(format!(
            "condition `{name}` contains `{c}` (a side is written config@condition, sides are separated by commas)"
        ))
    } else {
        Ok(())
    }
}

/// Read and validate a case file: one JSON object, a JSON array of objects,
/// or JSONL (one object a line; blank lines skipped). Case ids must be unique.
pub fn read_cases(text: &str) -> Result<Vec<Case>, EvidenceError> {
    read_cases_as_given(text).map_err(|e| crate::other_part(text, true).unwrap_or(e))
}

fn read_cases_as_given(text: &str) -> Result<Vec<Case>, EvidenceError> {
    let text = text.trim_start_matches('\u{feff}');
    let trimmed = text.trim_start();
    let mut raw: Vec<(CaseLocation, Value)> = Vec::new();
    if trimmed.starts_with('[') {
        let v: Value = serde_json::from_str(text).map_err(|e| EvidenceError::CaseJson {
            line: e.line() as u64,
            column: e.column() as u64,
            message: gapscope_data::profile::json_message(&e),
        })?;
        if let Value::Array(items) = v {
            raw.extend(
                items
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| (CaseLocation::Item(i + 1), v)),
            );
        }
    } else {
        // One object (possibly spread over several lines) or JSONL.
        match serde_json::from_str::<Value>(text) {
            Ok(v) => raw.push((CaseLocation::Line(1), v)),
            Err(whole) => {
                // JSONL, unless the first line is not a whole value: then the
                // text is one (pretty-printed) object and its error is the one
                // to report.
                let first_ok = text
                    .lines()
                    .find(|l| !l.trim().is_empty())
                    .is_some_and(|l| serde_json::from_str::<Value>(l).is_ok());
                if !first_ok {
                    return Err(EvidenceError::CaseJson {
                        line: whole.line() as u64,
                        column: whole.column() as u64,
                        message: gapscope_data::profile::json_message(&whole),
                    });
                }
                for (i, line) in text.lines().enumerate() {
                    if line.trim().is_empty() {
                        continue;
                    }
                    let n = i as u64 + 1;
                    let v: Value =
                        serde_json::from_str(line).map_err(|e| EvidenceError::CaseJson {
                            line: n,
                            column: e.column() as u64,
                            message: gapscope_data::profile::json_message(&e),
                        })?;
                    raw.push((CaseLocation::Line(n), v));
                }
            }
        }
    }
    let mut cases: Vec<Case> = Vec::with_capacity(raw.len());
    let mut seen: IndexMap<String, CaseLocation> = IndexMap::new();
    for (at, v) in raw {
        let case = parse_case(at, v)?;
        if let Some(first) = seen.get(&case.case_id) {
            return Err(EvidenceError::Case {
                at,
                case_id: case.case_id.clone(),
                field: "case_id".into(),
                message: format!("already used at {first}"),
            });
        }
        seen.insert(case.case_id.clone(), at);
        cases.push(case);
    }
    Ok(cases)
}

fn parse_case(at: CaseLocation, v: Value) -> Result<Case, EvidenceError> {
    let id_hint = v
        .get("case_id")
        .and_then(Value::as_str)
        .unwrap_or("?")
        .to_string();
    if !v.is_object() {
        return Err(EvidenceError::Case {
            at,
            case_id: id_hint,
            field: String::new(),
            message: "expected a JSON object".into(),
        });
    }
    let raw: RawCase = serde_json::from_value(v).map_err(|e| EvidenceError::Case {
        at,
        case_id: id_hint.clone(),
        field: String::new(),
        message: gapscope_data::profile::json_message(&e),
    })?;
    Validator {
        at,
        case_id: raw.case_id.clone(),
    }
    .validate(raw)
}

struct Validator {
    at: CaseLocation,
    case_id: String,
}

/// Names listed in a message: at most [`LISTED`], then how many more.
fn list(names: &[&str]) -> String {
    if names.is_empty() {
        "none".into()
    } else if names.len() > LISTED {
        format!(
            "{}, … and {} more",
            names[..LISTED].join(", "),
            names.len() - LISTED
        )
    } else {
        names.join(", ")
    }
}

/// How many names an error message lists.
const LISTED: usize = 20;

impl Validator {
    fn err(&self, field: impl Into<String>, message: impl Into<String>) -> EvidenceError {
        EvidenceError::Case {
            at: self.at,
            case_id: self.case_id.clone(),
            field: field.into(),
            message: message.into(),
        }
    }

    #[allow(
        clippy::too_many_lines,
        reason = "one located check per field of a case spec, in the spec's order"
    )]
    fn validate(&self, raw: RawCase) -> Result<Case, EvidenceError> {
        if raw.case_id.trim().is_empty() {
            return Err(self.err("case_id", "must not be empty"));
        }
        let protocol = Protocol::parse(&raw.protocol).ok_or_else(|| {
            self.err(
                "protocol",
                format!(
                    "`{}` is not a protocol (expected Legacy, V0, V1, V2 or V3)",
                    raw.protocol
                ),
            )
        })?;
        if raw.domain.trim().is_empty() {
            return Err(self.err("domain", "must not be empty"));
        }
        let tools = raw.tools.unwrap_or(RawTools {
            information: Vec::new(),
            consequential: Vec::new(),
        });
        let mut names: HashSet<&str> = HashSet::new();
        for (kind, list) in [
            ("information", &tools.information),
            ("consequential", &tools.consequential),
        ] {
            for (i, t) in list.iter().enumerate() {
                if t.name.trim().is_empty() {
                    return Err(self.err(format!("tools.{kind}[{i}].name"), "must not be empty"));
                }
                if !names.insert(&t.name) {
                    return Err(self.err(
                        format!("tools.{kind}[{i}].name"),
                        format!("tool `{}` is listed twice", t.name),
                    ));
                }
            }
        }
        let info_names: Vec<&str> = tools.information.iter().map(|t| t.name.as_str()).collect();
        let cons_names: Vec<&str> = tools
            .consequential
            .iter()
            .map(|t| t.name.as_str())
            .collect();
        let info_tools: HashMap<&str, &ToolSpec> = tools
            .information
            .iter()
            .map(|t| (t.name.as_str(), t))
            .collect();
        let cons_tools: HashMap<&str, &ToolSpec> = tools
            .consequential
            .iter()
            .map(|t| (t.name.as_str(), t))
            .collect();

        // Action ids and returns first: refs and action sources name them
        // (looked up by id: linear in the case, not quadratic).
        let mut action_ids: Vec<&str> = Vec::new();
        let mut action_index: HashMap<&str, usize> = HashMap::new();
        for (i, a) in raw.actions.iter().enumerate() {
            if a.id.trim().is_empty() {
                return Err(self.err(format!("actions[{i}].id"), "must not be empty"));
            }
            if action_index.insert(&a.id, i).is_some() {
                return Err(self.err(
                    format!("actions[{i}].id"),
                    format!("action id `{}` is used twice", a.id),
                ));
            }
            action_ids.push(&a.id);
        }
        let returns = |id: &str| -> Option<Option<&Vec<String>>> {
            action_index
                .get(id)
                .map(|&i| raw.actions[i].returns.as_ref())
        };
        let check_ref = |field: &str, r: &RefSpec| -> Result<(), EvidenceError> {
            let Some(ret) = returns(&r.action) else {
                return Err(self.err(
                    field,
                    format!(
                        "`ref` names action `{}`, which does not exist (actions: {})",
                        r.action,
                        list(&action_ids)
                    ),
                ));
            };
            // Without `returns` the field is checked at scoring (addendum §1);
            // a present `returns`, even `[]`, keeps the load-time check.
            if ret.is_some_and(|ret| !ret.contains(&r.field)) {
                let ret = ret.map_or(&[][..], Vec::as_slice);
                let ret: Vec<&str> = ret.iter().map(String::as_str).collect();
                return Err(self.err(
                    field,
                    format!(
                        "`ref` names field `{}` of action `{}`, which returns no such field (its `returns`: {})",
                        r.field,
                        r.action,
                        list(&ret)
                    ),
                ));
            }
            Ok(())
        };
        let parse_args = |field: &str,
                          args: &Map<String, Value>,
                          tool: &ToolSpec|
         -> Result<IndexMap<String, Arg>, EvidenceError> {
            let mut out = IndexMap::new();
            for (k, v) in args {
                let f = format!("{field}.{k}");
                if !tool.parameters.is_empty() && !tool.parameters.contains(k) {
                    return Err(self.err(
                        &f,
                        format!(
                            "tool `{}` has no parameter `{k}` (parameters: {})",
                            tool.name,
                            tool.parameters.join(", ")
                        ),
                    ));
                }
                let arg = parse_arg(v).map_err(|m| self.err(&f, m))?;
                if let Arg::Ref(r) = &arg {
                    check_ref(&f, r)?;
                }
                out.insert(k.clone(), arg);
            }
            Ok(out)
        };
        let read_spec = |field: &str, v: &Value| -> Result<ReadSpec, EvidenceError> {
            let o = v
                .as_object()
                .ok_or_else(|| self.err(field, "expected an object {tool, args}"))?;
            for k in o.keys() {
                if k != "tool" && k != "args" {
                    return Err(self.err(
                        format!("{field}.{k}"),
                        "unknown key (expected `tool` and `args`)",
                    ));
                }
            }
            let tool = o
                .get("tool")
                .and_then(Value::as_str)
                .ok_or_else(|| self.err(format!("{field}.tool"), "expected a tool name"))?;
            let spec = info_tools.get(tool).copied().ok_or_else(|| {
                self.err(
                    format!("{field}.tool"),
                    format!(
                        "`{tool}` is not an information tool of the case (information tools: {})",
                        list(&info_names)
                    ),
                )
            })?;
            let args = match o.get("args") {
                None | Some(Value::Null) => Map::new(),
                Some(Value::Object(m)) => m.clone(),
                Some(_) => return Err(self.err(format!("{field}.args"), "expected an object")),
            };
            Ok(ReadSpec {
                tool: tool.to_string(),
                args: parse_args(&format!("{field}.args"), &args, spec)?,
            })
        };

        let mut requirements: Vec<Requirement> = Vec::new();
        let mut req_seen: HashSet<&str> = HashSet::new();
        for (i, r) in raw.requirements.iter().enumerate() {
            let f = format!("requirements[{i}]");
            if r.id.trim().is_empty() {
                return Err(self.err(format!("{f}.id"), "must not be empty"));
            }
            if !req_seen.insert(&r.id) {
                return Err(self.err(
                    format!("{f}.id"),
                    format!("requirement id `{}` is used twice", r.id),
                ));
            }
            let sf = format!("{f}.source");
            let o = r.source.as_object().ok_or_else(|| {
                self.err(&sf, "expected {tool, args} or {action, field[, confirm]}")
            })?;
            let source = if o.contains_key("tool") {
                Source::Read(read_spec(&sf, &r.source)?)
            } else if o.contains_key("action") {
                for k in o.keys() {
                    if !["action", "field", "confirm"].contains(&k.as_str()) {
                        return Err(self.err(
                            format!("{sf}.{k}"),
                            "unknown key (expected `action`, `field`, `confirm`)",
                        ));
                    }
                }
                let action = o.get("action").and_then(Value::as_str).unwrap_or_default();
                let field = o
                    .get("field")
                    .and_then(Value::as_str)
                    .ok_or_else(|| self.err(format!("{sf}.field"), "expected a field name"))?;
                check_ref(
                    &sf,
                    &RefSpec {
                        action: action.into(),
                        field: field.into(),
                    },
                )?;
                let confirm = match o.get("confirm") {
                    None | Some(Value::Null) => None,
                    Some(c) => Some(read_spec(&format!("{sf}.confirm"), c)?),
                };
                Source::ActionResult {
                    action: action.into(),
                    field: field.into(),
                    confirm,
                }
            } else {
                return Err(self.err(&sf, "expected {tool, args} or {action, field[, confirm]}"));
            };
            requirements.push(Requirement {
                id: r.id.clone(),
                fact: r.fact.clone(),
                source,
            });
        }
        let req_ids: Vec<&str> = requirements.iter().map(|r| r.id.as_str()).collect();
        let req_set: HashSet<&str> = req_ids.iter().copied().collect();

        let mut actions: Vec<ActionSpec> = Vec::new();
        for (i, a) in raw.actions.iter().enumerate() {
            let f = format!("actions[{i}]");
            let tool = cons_tools.get(a.tool.as_str()).copied().ok_or_else(|| {
                self.err(
                    format!("{f}.tool"),
                    format!(
                        "`{}` is not a consequential tool of the case (consequential tools: {})",
                        a.tool,
                        list(&cons_names)
                    ),
                )
            })?;
            for (j, r) in a.requires.iter().enumerate() {
                if !req_set.contains(r.as_str()) {
                    return Err(self.err(
                        format!("{f}.requires[{j}]"),
                        format!(
                            "unknown requirement id `{r}` (requirements: {})",
                            list(&req_ids)
                        ),
                    ));
                }
            }
            for (j, d) in a.after.iter().enumerate() {
                if !action_index.contains_key(d.as_str()) {
                    return Err(self.err(
                        format!("{f}.after[{j}]"),
                        format!("unknown action id `{d}` (actions: {})", list(&action_ids)),
                    ));
                }
            }
            actions.push(ActionSpec {
                id: a.id.clone(),
                tool: a.tool.clone(),
                args: parse_args(&format!("{f}.args"), &a.args, tool)?,
                requires: a.requires.clone(),
                after: a.after.clone(),
                returns: a.returns.clone(),
            });
        }

        let terminal =
            match &raw.terminal {
                None => None,
                Some(t) => Some(Label::parse(t).filter(|l| *l != Label::Allow).ok_or_else(
                    || {
                        self.err(
                            "terminal",
                            format!("`{t}` is not a terminal (expected ACT, BLOCK or DEFER)"),
                        )
                    },
                )?),
            };
        let expected_decision = match &raw.expected_decision {
            None => None,
            Some(t) => Some(
                Label::parse(t)
                    .filter(|l| *l != Label::Act)
                    .ok_or_else(|| {
                        self.err(
                            "expected_decision",
                            format!("`{t}` is not a decision (expected ALLOW, BLOCK or DEFER)"),
                        )
                    })?,
            ),
        };

        let mut conditions = IndexMap::new();
        for (name, c) in raw.conditions.iter().flatten() {
            let f = format!("conditions.{name}");
            check_condition_name(name).map_err(|m| self.err(&f, m))?;
            if let Some(affects) = &c.affects {
                for (j, r) in affects.iter().enumerate() {
                    if !req_set.contains(r.as_str()) {
                        return Err(self.err(
                            format!("{f}.affects[{j}]"),
                            format!(
                                "unknown requirement id `{r}` (requirements: {})",
                                list(&req_ids)
                            ),
                        ));
                    }
                }
            }
            conditions.insert(
                name.clone(),
                ConditionSpec {
                    affects: c.affects.clone(),
                },
            );
        }

        let case = Case {
            case_id: raw.case_id.clone(),
            protocol,
            domain: raw.domain.trim().to_string(),
            instruction: raw.instruction,
            read_budget: raw.read_budget,
            information: tools.information,
            consequential: tools.consequential,
            requirements,
            actions,
            terminal,
            candidate: raw.candidate,
            expected_decision,
            notes: raw.notes,
            conditions,
        };
        self.check_graph(&case)?;
        self.check_protocol(&case)?;
        Ok(case)
    }

    /// Dependency edges of action `i`: its `after`, the actions its `ref`
    /// arguments name, and the actions its required action results come from.
    /// A cycle is reported as a path. Iterative depth-first search (a 10⁵-action
    /// chain overflowed the stack when it recursed).
    fn check_graph(&self, case: &Case) -> Result<(), EvidenceError> {
        let Some(cycle) = find_cycle(&dependency_edges(case)) else {
            return Ok(());
        };
        let first = cycle[0];
        let ids: Vec<&str> = cycle.iter().map(|&i| case.actions[i].id.as_str()).collect();
        // A long cycle is shown by its first and last actions.
        let path = if ids.len() > 2 * LISTED {
            format!(
                "{} → … ({} more actions) … → {}",
                ids[..LISTED].join(" → "),
                ids.len() - 2 * LISTED,
                ids[ids.len() - LISTED..].join(" → ")
            )
        } else {
            ids.join(" → ")
        };
        Err(self.err(
            format!("actions[{first}].after"),
            format!(
                "cyclic dependency: {path} (each action must wait for the next; edges come from `after`, `ref` arguments and required action results; {} actions in the cycle)",
                cycle.len() - 1
            ),
        ))
    }

    fn check_protocol(&self, case: &Case) -> Result<(), EvidenceError> {
        let p = case.protocol;
        match p {
            Protocol::Legacy => {
                if case.expected_decision.is_none() {
                    return Err(self.err(
                        "expected_decision",
                        "a Legacy case needs expected_decision (ALLOW, BLOCK or DEFER)",
                    ));
                }
                if case.candidate.is_none() {
                    return Err(self.err("candidate", "a Legacy case needs the candidate action"));
                }
            }
            Protocol::V0 => {
                if !case.actions.is_empty() {
                    return Err(self.err(
                        "actions",
                        "a V0 case has no actions (the agent must withhold execution)",
                    ));
                }
                match case.terminal {
                    Some(Label::Block | Label::Defer) => {}
                    _ => {
                        return Err(self.err("terminal", "a V0 case needs terminal BLOCK or DEFER"))
                    }
                }
            }
            Protocol::V1 | Protocol::V2 | Protocol::V3 => {
                if case.terminal != Some(Label::Act) {
                    return Err(self.err(
                        "terminal",
                        format!("a {} case needs terminal ACT", p.name()),
                    ));
                }
                if p == Protocol::V1 && case.actions.len() != 1 {
                    return Err(self.err(
                        "actions",
                        format!(
                            "a V1 case has exactly one action, found {}",
                            case.actions.len()
                        ),
                    ));
                }
                if case.actions.is_empty() {
                    return Err(self.err(
                        "actions",
                        format!("a {} case needs at least one action", p.name()),
                    ));
                }
                if p == Protocol::V2 {
                    if let Some((a, b)) = unordered_pair(case) {
                        return Err(self.err(
                            "actions",
                            format!(
                                "a V2 workflow is linear, but `{a}` and `{b}` may run in either order (add one to the other's `after`, or make the case V3)"
                            ),
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

/// `{"ref": "a1.field"}` or a literal.
fn parse_arg(v: &Value) -> Result<Arg, String> {
    if let Value::Object(o) = v {
        if let Some(r) = o.get("ref") {
            if o.len() != 1 {
                return Err("a reference is an object with the single key `ref`".into());
            }
            let text = r
                .as_str()
                .ok_or("`ref` must be a string \"action.field\"")?;
            let (action, field) = text
                .split_once('.')
                .filter(|(a, f)| !a.is_empty() && !f.is_empty())
                .ok_or_else(|| format!("`ref` `{text}` is not of the form \"action.field\""))?;
            return Ok(Arg::Ref(RefSpec {
                action: action.into(),
                field: field.into(),
            }));
        }
    }
    Ok(Arg::Literal(v.clone()))
}

/// For each action, the actions it depends on, with the kind of edge.
pub(crate) fn dependency_edges(case: &Case) -> Vec<Vec<(usize, &'static str)>> {
    let actions: HashMap<&str, usize> = case
        .actions
        .iter()
        .enumerate()
        .map(|(i, a)| (a.id.as_str(), i))
        .collect();
    let requirements: HashMap<&str, &Source> = case
        .requirements
        .iter()
        .map(|r| (r.id.as_str(), &r.source))
        .collect();
    let index = |id: &str| actions.get(id).copied();
    case.actions
        .iter()
        .map(|a| {
            let mut e: Vec<(usize, &'static str)> = Vec::new();
            for d in &a.after {
                if let Some(j) = index(d) {
                    e.push((j, "after"));
                }
            }
            for arg in a.args.values() {
                if let Arg::Ref(r) = arg {
                    if let Some(j) = index(&r.action) {
                        e.push((j, "ref"));
                    }
                }
            }
            for rid in &a.requires {
                if let Some(Source::ActionResult { action, .. }) = requirements.get(rid.as_str()) {
                    if let Some(j) = index(action) {
                        e.push((j, "requires"));
                    }
                }
            }
            e
        })
        .collect()
}

/// A cycle of the graph (`edges[v]`: the nodes v depends on), as the path
/// v0 → v1 → … → v0, found by an iterative depth-first search (an explicit
/// stack: no recursion, whatever the depth).
fn find_cycle(edges: &[Vec<(usize, &'static str)>]) -> Option<Vec<usize>> {
    let n = edges.len();
    let mut state = vec![0u8; n]; // 0 new, 1 on the path, 2 done
                                  // The current path: (node, index of its next edge).
    let mut path: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        path.push((root, 0));
        while let Some(&mut (v, ref mut next)) = path.last_mut() {
            if let Some(&(w, _)) = edges[v].get(*next) {
                *next += 1;
                match state[w] {
                    1 => {
                        let from = path.iter().position(|&(x, _)| x == w).unwrap_or(0);
                        let mut cycle: Vec<usize> = path[from..].iter().map(|&(x, _)| x).collect();
                        cycle.push(w);
                        return Some(cycle);
                    }
                    0 => {
                        state[w] = 1;
                        path.push((w, 0));
                    }
                    _ => {}
                }
            } else {
                state[v] = 2;
                path.pop();
            }
        }
    }
    None
}

/// Two actions not ordered by the (acyclic) dependency edges, if any: the
/// first point where Kahn's algorithm has a choice. Linear in the edges.
fn unordered_pair(case: &Case) -> Option<(String, String)> {
    let edges = dependency_edges(case);
    let n = case.actions.len();
    // Count each (dependent, dependency) edge as often as it is listed, as
    // the in-degree does.
    let mut indegree: Vec<usize> = edges.iter().map(Vec::len).collect();
    let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, e) in edges.iter().enumerate() {
        for &(j, _) in e {
            dependents[j].push(i);
        }
    }
    // Ready nodes in index order (the first two are reported).
    let mut ready: std::collections::BTreeSet<usize> =
        (0..n).filter(|&i| indegree[i] == 0).collect();
    for _ in 0..n {
        if ready.len() > 1 {
            let mut it = ready.iter();
            let (a, b) = (*it.next()?, *it.next()?);
            return Some((case.actions[a].id.clone(), case.actions[b].id.clone()));
        }
        let v = ready.pop_first()?;
        for &i in &dependents[v] {
            indegree[i] -= 1;
            if indegree[i] == 0 {
                ready.insert(i);
            }
        }
    }
    None
}
