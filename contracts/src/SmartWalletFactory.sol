// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {SmartWallet} from "./SmartWallet.sol";

/// @notice CREATE2 factory of SmartWallet clones (EIP-1167): a wallet's address is known before
/// it exists, which is what EIP-6492 signatures rely on (their factory calldata is
/// deploy(owner, salt)). Deploying a clone is a transaction of about 95,000 gas, so a sign-in
/// check that deploys the wallet first fits in a small gas bound.
contract SmartWalletFactory {
    event WalletDeployed(address indexed wallet, address indexed owner, bytes32 salt);

    address public immutable implementation;

    constructor() {
        implementation = address(new SmartWallet());
    }

    /// Idempotent: returns the existing wallet if it is already deployed, so a 6492 validator
    /// (or anyone) may call it again without reverting.
    function deploy(address owner, bytes32 salt) external returns (address wallet) {
        wallet = getAddress(owner, salt);
        if (wallet.code.length > 0) return wallet;
        bytes memory code = _cloneCode();
        bytes32 s = _salt(owner, salt);
        address created;
        assembly {
            created := create2(0, add(code, 0x20), mload(code), s)
        }
        require(created == wallet, "SmartWalletFactory: address mismatch");
        SmartWallet(payable(created)).initialize(owner);
        emit WalletDeployed(wallet, owner, salt);
    }

    function getAddress(address owner, bytes32 salt) public view returns (address) {
        bytes32 initCodeHash = keccak256(_cloneCode());
        return address(
            uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), _salt(owner, salt), initCodeHash))))
        );
    }

    /// EIP-1167's minimal proxy creation code for `implementation`.
    function _cloneCode() private view returns (bytes memory) {
        return abi.encodePacked(
            hex"3d602d80600a3d3981f3363d3d373d3d3d363d73", implementation, hex"5af43d82803e903d91602b57fd5bf3"
        );
    }

    /// The owner is folded into the salt so one (owner, salt) pair maps to one wallet.
    function _salt(address owner, bytes32 salt) private pure returns (bytes32) {
        return keccak256(abi.encode(owner, salt));
    }
}
