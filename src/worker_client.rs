//! The page's handle on the analysis worker: one web worker, forked bridges so
//! that each request gets its own answer channel.

use gapscope_worker::web::AnalysisWorker;
use gapscope_worker::{decode_response, encode_request, Request, Response};
use gloo_worker::oneshot::OneshotBridge;
use gloo_worker::Spawnable;

/// The loader script Trunk writes for the `worker` bin (`data-loader-shim`).
const WORKER_URL: &str = "./worker_loader.js";

pub struct WorkerClient {
    bridge: OneshotBridge<AnalysisWorker>,
}

impl WorkerClient {
    pub fn spawn() -> Self {
        WorkerClient {
            bridge: AnalysisWorker::spawner()
                .with_loader(true)
                .spawn(WORKER_URL),
        }
    }

    /// Send a request; the future resolves with the worker's answer.
    pub fn run(&self, request: &Request) -> impl std::future::Future<Output = Response> {
        let mut bridge = self.bridge.fork();
        let message = encode_request(request);
        async move { decode_response(&bridge.run(message).await) }
    }
}
