//! [`crate::Job::ProxyLabels`]: proxy operation labels of a source's
//! τ²-bench results files, as `gapscope evidence tau2-labels` gives them.

use crate::attached::{source_files, text_of};
use crate::protocol::{ProxyLabelFile, Source};
use gapscope_data::formats::{detect_bytes, TrajectoryFormat};
use gapscope_gaps::proxy_labels::{proxy_labels_of_files, summary_text, to_csv};
use gapscope_gaps::task_groups::ToolOverrides;

/// The source's τ²-bench results files labelled together (tools classed
/// over all of them), the other files left out.
pub fn proxy_label_file(
    source: &Source,
    attached: &[(String, Vec<u8>)],
) -> Result<ProxyLabelFile, String> {
    let (files, _) = source_files(source, attached)?;
    let mut tau2 = Vec::new();
    let mut left_out = Vec::new();
    for (name, bytes) in &files {
        match detect_bytes(bytes) {
            Some(TrajectoryFormat::Tau2) => tau2.push((name.clone(), text_of(name, bytes)?)),
            _ => left_out.push(name.clone()),
        }
    }
    if tau2.is_empty() {
        return Err(format!(
            "proxy labels need τ²-bench results files; none among {}",
            left_out.join(", ")
        ));
    }
    let labels =
        proxy_labels_of_files(&tau2, None, ToolOverrides::default()).map_err(|e| e.to_string())?;
    Ok(ProxyLabelFile {
        csv: to_csv(&labels),
        summary: summary_text(&labels),
        labelled: tau2.into_iter().map(|(n, _)| n).collect(),
        left_out,
    })
}

#[cfg(test)]
mod tests {
    use crate::attached::attach;
    use crate::jobs::run_job;
    use crate::protocol::{Answer, Job, Source};
    use crate::warm_up_tau2;

    #[test]
    fn proxy_labels_come_from_the_tau2_files_and_leave_the_others_out() {
        let files = vec![
            ("results.json".to_string(), warm_up_tau2(6).into_bytes()),
            ("f.csv".to_string(), b"model,family,TU\na,A,1\n".to_vec()),
        ];
        let source = |files: &[(String, Vec<u8>)]| {
            Source::attached(files.iter().map(|(n, _)| n.clone()).collect())
        };
        let job = Job::ProxyLabels {
            source: source(&files),
        };
        let Answer::ProxyLabels(answer) = run_job(&job, attach(&files), &mut |_| {}) else {
            panic!()
        };
        let p = answer.unwrap();
        assert_eq!(p.labelled, ["results.json"]);
        assert_eq!(p.left_out, ["f.csv"]);
        assert!(p
            .csv
            .starts_with("trajectory_id,operation,requirement,label,turn,why\n"));
        // Every label names a simulation of the file (warm-0 … warm-5).
        assert!(p.csv.lines().skip(1).count() > 0);
        assert!(p.csv.lines().skip(1).all(|l| l.starts_with("warm-")));
        let only_csv = &files[1..];
        let Answer::ProxyLabels(answer) = run_job(
            &Job::ProxyLabels {
                source: source(only_csv),
            },
            attach(only_csv),
            &mut |_| {},
        ) else {
            panic!()
        };
        assert_eq!(
            *answer,
            Err("proxy labels need τ²-bench results files; none among f.csv".to_string())
        );
    }
}
