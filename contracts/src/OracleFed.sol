// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/**
 * A contract fed by the rail's oracle account: the owner names the one account that may write
 * (setOracle), and every write carries the oracle run's id, which must grow, so a delayed
 * transaction of an older run can never replace a newer run's values.
 *
 * A run id is the start of the run's interval in Unix seconds (the oracle_runs slot, decision
 * 0035): one run per interval, so the id names the run and orders the runs.
 */
abstract contract OracleFed is Ownable {
    address public oracle;
    uint64 public latestRunId;

    event OracleSet(address indexed oracle);

    error NotOracle(address caller);
    error StaleRun(uint64 runId, uint64 latestRunId);

    constructor(address owner_, address oracle_) Ownable(owner_) {
        oracle = oracle_;
        emit OracleSet(oracle_);
    }

    modifier onlyOracle() {
        if (msg.sender != oracle) revert NotOracle(msg.sender);
        _;
    }

    function setOracle(address oracle_) external onlyOwner {
        oracle = oracle_;
        emit OracleSet(oracle_);
    }

    /// Records `runId` as the latest run; refuses a run not newer than the latest one.
    function _acceptRun(uint64 runId) internal {
        if (runId <= latestRunId) revert StaleRun(runId, latestRunId);
        latestRunId = runId;
    }
}
