// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title Tether USD for the dev chain
/// @notice An ERC-20 with USDT's name and symbol and the decimals of USDT on the network it stands for (6 on
///         Ethereum, Arbitrum One and Polygon; 18 on BNB Smart Chain), so that the exchange's deposit watcher and
///         withdrawal signer handle the same units as on a real chain. Only the deployer may mint: dev chain only.
contract TetherToken is ERC20, Ownable {
    uint8 private immutable _decimals;

    /// @param decimals_ the token's decimals (6 or 18 for USDT's networks)
    constructor(uint8 decimals_) ERC20("Tether USD", "USDT") Ownable(msg.sender) {
        _decimals = decimals_;
    }

    /// @notice The decimals given at deployment.
    function decimals() public view override returns (uint8) {
        return _decimals;
    }

    /// @notice Mints `amount` token units (10^decimals per USDT) to `to`; owner only.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}
