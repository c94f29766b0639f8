// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ECDSA} from "./ECDSA.sol";

// Signature checking for EOAs, deployed contract wallets (ERC-1271) and not-yet-deployed
// ones (EIP-6492), after the reference `ValidateSigOffchain` in EIP-6492.

interface IERC1271Wallet {
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4 magicValue);
}

/// @notice Deployless validator: run it as an eth_call with no `to` and data = creation
/// bytecode ++ abi.encode(signer, hash, signature). The constructor answers a single byte,
/// 0x01 valid or 0x00 invalid; nothing is persisted.
///
/// Deviation from the reference: the checks run in this constructor instead of in a singleton
/// it creates first. Creating the singleton costs more gas than the check itself, and the
/// service bounds a check's gas tightly (a caller's signature is paid for by the service's
/// node). The order is the reference's: the 6492 wrapper (deploying through its factory when
/// there is no code yet), then ERC-1271 when there is code, finally ecrecover.
contract UniversalSigValidator {
    bytes32 private constant ERC6492_DETECTION_SUFFIX = 0x6492649264926492649264926492649264926492649264926492649264926492;
    bytes4 private constant ERC1271_SUCCESS = 0x1626ba7e;

    constructor(address _signer, bytes32 _hash, bytes memory _signature) {
        bool isValid = _check(_signer, _hash, _signature);
        assembly {
            mstore(0, isValid)
            return(31, 1)
        }
    }

    function _check(address _signer, bytes32 _hash, bytes memory _signature) private returns (bool) {
        bytes memory sigToValidate = _signature;
        bool isCounterfactual = _endsWithSuffix(_signature);
        if (isCounterfactual) {
            // Drop the suffix in place (this memory is ours), then read the wrapper.
            assembly {
                mstore(_signature, sub(mload(_signature), 32))
            }
            address create2Factory;
            bytes memory factoryCalldata;
            (create2Factory, factoryCalldata, sigToValidate) = abi.decode(_signature, (address, bytes, bytes));
            if (_signer.code.length == 0) {
                (bool success,) = create2Factory.call(factoryCalldata);
                if (!success) return false;
            }
        }
        if (_signer.code.length > 0) {
            try IERC1271Wallet(_signer).isValidSignature(_hash, sigToValidate) returns (bytes4 magicValue) {
                return magicValue == ERC1271_SUCCESS;
            } catch {
                return false;
            }
        }
        address recovered = ECDSA.recover(_hash, sigToValidate);
        return recovered != address(0) && recovered == _signer;
    }

    function _endsWithSuffix(bytes memory sig) private pure returns (bool) {
        if (sig.length < 32) return false;
        bytes32 tail;
        assembly {
            tail := mload(add(add(sig, 0x20), sub(mload(sig), 32)))
        }
        return tail == ERC6492_DETECTION_SUFFIX;
    }
}
