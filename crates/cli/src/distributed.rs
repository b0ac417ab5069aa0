//! Running under `mpirun`, with the `mpi` feature.

/// The MPI universe if this process is one rank of an `mpirun` (OpenMPI
/// sets `OMPI_COMM_WORLD_SIZE` in every rank it starts); `None` otherwise,
/// so that a plain run never starts MPI.
pub fn universe() -> anyhow::Result<Option<mpi::environment::Universe>> {
    if std::env::var_os("OMPI_COMM_WORLD_SIZE").is_none() {
        return Ok(None);
    }
    mpi::initialize().map(Some).ok_or_else(|| anyhow::anyhow!("MPI was started twice"))
}
