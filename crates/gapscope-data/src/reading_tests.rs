//! Tests of the trajectory model, the canonical reader, label CSVs and the
//! operation profile together (they read one corpus through all three).

mod tests {
    use crate::formats::*;
    use crate::labels::*;
    use crate::operations::*;
    use crate::profile::{MacroDefinition, ProfileTable};
    use crate::trajectory::*;

    const JSONL: &str = r#"{"id": "t1", "model": "M1", "family": "A", "task_id": "x", "reward": 1.0, "labels": {"GI": [1, 0.5], "RC": [null]}}
{"id": "t2", "model": "M1", "family": "A", "task_id": "y", "reward": 0.0, "labels": {"GI": [0], "RC": [1]}}
not json
{"id": "t3", "model": "M2", "family": "B", "task_id": "x", "reward": 0.5, "labels": {"GI": [1], "RC": [0, 1]}}
{"id": "t4", "model": "M2", "family": "B", "task_id": "z", "reward": 1.0, "labels": {"GI": [0.3]}}
{"id": "t1", "model": "M2", "family": "B", "task_id": "x", "reward": 1.0}

{"id": "t5", "model": "M2", "family": "B", "task_id": "y", "reward": 0.0, "labels": {"GI": [0.5]}}
"#;

    #[test]
    fn malformed_lines_are_reported_and_the_rest_read() {
        let c = read_jsonl(JSONL);
        assert_eq!(
            c.trajectories
                .iter()
                .map(|t| t.id.as_str())
                .collect::<Vec<_>>(),
            ["t1", "t2", "t3", "t5"]
        );
        assert_eq!(c.skipped.len(), 3);
        assert_eq!(c.skipped[0].line, 3);
        assert_eq!(c.skipped[0].to_string(), "line 3: column 2: expected ident");
        assert_eq!(c.skipped[1].to_string(), "line 5: trajectory `t4`, operation GI, requirement 1: label 0.3 is not 0, 0.5, 1 or null");
        assert_eq!(
            c.skipped[2].to_string(),
            "line 6: trajectory id `t1` already used on line 1"
        );
    }

    #[test]
    fn operation_scores_by_hand() {
        let c = read_jsonl(JSONL);
        // Common tasks: M1 did x, y; M2 did x, y (z was skipped): both.
        let p = operation_profile(&c.trajectories, &ProfileOptions::default());
        assert_eq!(p.models, ["M1", "M2"]);
        assert_eq!(p.operations, ["GI", "RC"]);
        assert_eq!(p.tasks, ["x", "y"]);
        // M1 GI: s(t1) = 0.75, s(t2) = 0 -> 37.5 over 2 eligible.
        // M1 RC: t1 has only null (not eligible), t2 = 1 -> 100 over 1.
        assert_eq!(p.scores[0], vec![Some(37.5), Some(100.0)]);
        assert_eq!(p.eligible[0], vec![2, 1]);
        // M2 GI: t3 = 1, t5 = 0.5 -> 75; RC: t3 = 0.5, t5 has none -> 50 over 1.
        assert_eq!(p.scores[1], vec![Some(75.0), Some(50.0)]);
        assert_eq!(p.eligible[1], vec![2, 1]);
        assert_eq!(p.reward, vec![Some(50.0), Some(25.0)]);
        assert_eq!(p.macro_score, vec![Some(68.75), Some(62.5)]);
        // Pooled: M1: t1 labels (1, 0.5) -> 0.75, t2 (0, 1) -> 0.5 => 62.5;
        // M2: t3 (1, 0, 1) -> 2/3, t5 (0.5) -> 0.5 => 58.33…
        let pooled = operation_profile(
            &c.trajectories,
            &ProfileOptions {
                macro_definition: MacroDefinition::Pooled,
                ..Default::default()
            },
        );
        assert_eq!(pooled.macro_score[0], Some(62.5));
        assert!((pooled.macro_score[1].unwrap() - 100.0 * (2.0 / 3.0 + 0.5) / 2.0).abs() < 1e-12);
    }

    #[test]
    fn common_task_subset_and_all_tasks() {
        let text = r#"{"id": "a", "model": "M1", "task_id": "x", "reward": 1, "labels": {"GI": [1]}}
{"id": "b", "model": "M1", "task_id": "y", "reward": 0, "labels": {"GI": [0]}}
{"id": "c", "model": "M2", "task_id": "x", "reward": 0, "labels": {"GI": [0]}}
"#;
        let c = read_jsonl(text);
        let common = operation_profile(&c.trajectories, &ProfileOptions::default());
        assert_eq!(common.tasks, ["x"]);
        assert_eq!((common.n_total, common.n_used), (3, 2));
        assert_eq!(common.scores[0], vec![Some(100.0)]);
        let all = operation_profile(
            &c.trajectories,
            &ProfileOptions {
                all_tasks: true,
                ..Default::default()
            },
        );
        assert_eq!(all.scores[0], vec![Some(50.0)]);
        assert_eq!(all.reward[0], Some(50.0));
        assert_eq!(all.families[0], None);
        assert_eq!(all.to_table().families[0], "unknown");
    }

    #[test]
    fn label_csv_joins_on_id_and_locates_errors() {
        let mut c = read_jsonl(JSONL);
        let n = apply_label_csv(
            &mut c,
            "trajectory_id,operation,requirement,label\nt2,ST,r2,1\nt2,ST,r1,0.5\nt3,ST,r1,NA\n",
        )
        .unwrap();
        assert_eq!(n, 3);
        assert_eq!(c.trajectories[1].labels["ST"], vec![Some(0.5), Some(1.0)]);
        assert_eq!(c.trajectories[2].labels["ST"], vec![None]);
        let e = apply_label_csv(
            &mut c,
            "trajectory_id,operation,requirement,label\nt2,ST,r1,2\n",
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "line 2: label `2` is not 0, 0.5, 1 or null");
        let e = apply_label_csv(
            &mut c,
            "trajectory_id,operation,requirement,label\nzz,ST,r1,1\n",
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "line 2: no trajectory with id `zz`");
        let e = apply_label_csv(&mut c, "id,operation,requirement,label\n").unwrap_err();
        assert!(e
            .to_string()
            .starts_with("the label file has no `trajectory_id` column"));
    }

    #[test]
    fn models_are_renamed_and_merged() {
        let mut c = read_jsonl(JSONL);
        let renames = vec![
            parse_rename("M1=Same").unwrap(),
            parse_rename("M2 = Same").unwrap(),
        ];
        assert_eq!(rename_models(&mut c.trajectories, &renames), 4);
        let p = operation_profile(&c.trajectories, &ProfileOptions::default());
        assert_eq!(p.models, ["Same"]);
        assert_eq!(p.eligible[0][0], 4, "both models' trajectories are pooled");
        assert!(parse_rename("nothing").is_err());
        assert!(parse_rename("=x").is_err());
    }

    #[test]
    fn formats_are_recognized() {
        assert_eq!(detect(JSONL), Some(TrajectoryFormat::Jsonl));
        assert_eq!(
            detect("[{\"task_id\": \"1\", \"messages\": []}]"),
            Some(TrajectoryFormat::Tau2)
        );
        assert_eq!(
            detect("{\"info\": {}, \"tasks\": [], \"simulations\": []}"),
            Some(TrajectoryFormat::Tau2)
        );
        assert_eq!(detect("{\"models\": []}"), None);
        assert_eq!(detect("model,family,TU\n"), None);
        let c = read_any(
            "x.json",
            "[{\"task_id\": \"1\", \"reward_info\": {\"reward\": 1.0}, \"messages\": []}]",
            None,
        )
        .unwrap();
        assert_eq!(
            c.trajectories[0].model, "x",
            "a bare list is named by its file"
        );
        assert!(read_any("p.csv", "model,family\n", None).is_err());
    }

    #[test]
    fn profile_csv_reads_back_with_counts_ignored() {
        let c = read_jsonl(JSONL);
        let mut p = operation_profile(&c.trajectories, &ProfileOptions::default());
        p.models[0] = "M1, \"large\"".into(); // a name that needs quoting
        let t = ProfileTable::read(&p.to_csv(), &Default::default()).unwrap();
        assert_eq!(t.models[0], "M1, \"large\"");
        assert_eq!(t.operations.names, ["GI", "RC"]);
        assert_eq!(t.ignored, ["n_GI", "n_RC"]);
        assert_eq!(t.operations.values, p.scores);
    }
}
